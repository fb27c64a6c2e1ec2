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
