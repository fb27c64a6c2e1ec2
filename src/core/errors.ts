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

/**
 * Thrown by a check when the server departs from the rule: the verdict is FAIL.
 *
 * `owner` names the rule a shared step belongs to (e.g. the list-roles envelope
 * is `list-roles.plain-array`'s business). When a step fails inside another
 * rule, that rule cannot judge its own clause: it is SKIPped as blocked by the
 * owner, so each departure is charged to the one rule it breaks.
 */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly code = 'DC_FAIL';
  constructor(
    readonly violations: Violation[],
    readonly owner?: string,
  ) {
    super(violations.map((v) => `${v.where}: ${v.message}`).join('; '));
  }
}

export function isConformanceFailure(e: unknown): e is ConformanceFailure {
  return e instanceof ConformanceFailure;
}

/** A mistake in how the CLI or the API was called or configured: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'DC_ERR_USAGE';
  /**
   * False for a problem of the target, the profile or the machine (another run
   * holds the resources, a folder cannot be written): the flags' help would
   * not help, so the CLI says the one line and nothing more.
   */
  readonly seeHelp: boolean;

  constructor(message: string, options: { seeHelp?: boolean } = {}) {
    super(message);
    this.seeHelp = options.seeHelp ?? true;
  }
}
