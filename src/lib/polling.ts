import { isFinalState, type JobState } from '../../contract';

export const MAX_POLL_BACKOFF_MS = 30_000;

/**
 * How long until the next Job Detail poll, or false to stop: stop at a final state or on an
 * error that asking again will not fix; double the delay per consecutive failure, up to 30 s.
 */
export function nextPollDelay(input: {
  state: JobState | undefined;
  consecutiveErrors: number;
  permanentError: boolean;
  baseMs: number;
}): number | false {
  if (input.permanentError) return false;
  if (input.state && isFinalState(input.state)) return false;
  if (input.consecutiveErrors > 0) {
    return Math.min(input.baseMs * 2 ** input.consecutiveErrors, MAX_POLL_BACKOFF_MS);
  }
  return input.baseMs;
}
