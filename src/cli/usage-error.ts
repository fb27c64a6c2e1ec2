/** A mistake in how the CLI was called or configured: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code = 'DC_ERR_USAGE';
}
