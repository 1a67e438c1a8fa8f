/** A mistake in how a verb was called or configured: one line, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
