import { Text } from '@mantine/core';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

/**
 * "Starts in 59:12" for a scheduled job, ticking; given `what` ("Attempt 2 of 3"), "Attempt 2 of
 * 3 starts in 0:42" for the next attempt of a job waiting out its backoff.
 */
export function Countdown({
  at,
  what,
  testId = 'schedule-countdown',
}: {
  at: string;
  what?: string;
  testId?: string;
}) {
  const now = useNow(true);
  const left = Date.parse(at) - now;
  return (
    <Text data-testid={testId}>
      {left > 0 ? (
        <>
          {what ? `${what} starts in` : 'Starts in'} <strong>{formatDuration(left)}</strong>
        </>
      ) : what ? (
        `${what} starting now`
      ) : (
        'Starting now'
      )}
    </Text>
  );
}
