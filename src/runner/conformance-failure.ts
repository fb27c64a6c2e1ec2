import type { Violation } from '../rules/types.ts';

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
