import type { Violation } from './types.ts';

/**
 * Harness faults: the network or the harness failed, not the server's
 * conformance. They become ERROR (or NOT-TESTED), never FAIL. Codes are
 * stable; tests assert on them, never on prose.
 */
export type HarnessErrorCode =
  | 'DC_ERR_NETWORK'
  | 'DC_ERR_TIMEOUT'
  | 'DC_ERR_BODY_TOO_LARGE'
  | 'DC_ERR_BODY_CUT'
  | 'DC_ERR_DECODE'
  | 'DC_ERR_RATE_LIMITED'
  | 'DC_ERR_SERVER_5XX'
  | 'DC_ERR_UNAUTHENTICATED'
  | 'DC_ERR_BUDGET'
  | 'DC_ERR_ABORTED'
  | 'DC_ERR_PRECONDITION'
  | 'DC_ERR_RESTORE'
  | 'DC_ERR_FOREIGN_CHANGE'
  | 'DC_ERR_INTERRUPTED'
  | 'DC_ERR_REDIRECT'
  | 'DC_ERR_PROFILE'
  | 'DC_ERR_HARNESS';

export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isHarnessError(e: unknown): e is HarnessError {
  return e instanceof HarnessError;
}

/** Thrown by a check when the server departs from the running rule's own clause: the verdict is FAIL. */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly code = 'DC_FAIL';
  constructor(readonly violations: Violation[]) {
    super(violations.map((v) => `${v.where}: ${v.message}`).join('; '));
  }
}

/**
 * Thrown by a shared step when the server departed from another rule's
 * clause (e.g. a list page that is not an envelope, inside a rule about
 * filters): the step has already reported the departure to the engine, which
 * FAILs `owner` on it; the running rule cannot judge its own clause and is
 * SKIPped as blocked by `owner`.
 */
export class DepartureOfAnotherRule extends Error {
  override readonly name = 'DepartureOfAnotherRule';
  readonly code = 'DC_BLOCKED';
  constructor(
    readonly owner: string,
    readonly violations: readonly Violation[],
  ) {
    super(`${owner}: ${violations.map((v) => `${v.where}: ${v.message}`).join('; ')}`);
  }
}

export function isDepartureOfAnotherRule(e: unknown): e is DepartureOfAnotherRule {
  return e instanceof DepartureOfAnotherRule;
}

export function isConformanceFailure(e: unknown): e is ConformanceFailure {
  return e instanceof ConformanceFailure;
}

/** A mistake in how the CLI or the API was called or configured: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'DC_ERR_USAGE';
  /**
   * True only where the command line's shape was wrong (an unknown command or
   * flag with no near name, a flag without its value): there the CLI adds one
   * line pointing at the command's help. A problem of a value, the target,
   * the profile or the machine is its one line and nothing more.
   */
  readonly seeHelp: boolean;

  constructor(message: string, options: { seeHelp?: boolean } = {}) {
    super(message);
    this.seeHelp = options.seeHelp ?? false;
  }
}
