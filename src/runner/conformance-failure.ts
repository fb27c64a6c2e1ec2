import type { Violation } from '../rules/types.ts';

/** Thrown by a check when the server departs from the rule: the verdict is FAIL. */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly code = 'DC_FAIL';
  constructor(readonly violations: Violation[]) {
    super(violations.map((v) => `${v.where}: ${v.message}`).join('; '));
  }
}

export function isConformanceFailure(e: unknown): e is ConformanceFailure {
  return e instanceof ConformanceFailure;
}
