import { Text } from '@mantine/core';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

/** "Starts in 59:12" for a scheduled job, ticking. */
export function Countdown({ at }: { at: string }) {
  const now = useNow(true);
  const left = Date.parse(at) - now;
  return (
    <Text data-testid="schedule-countdown">
      {left > 0 ? (
        <>
          Starts in <strong>{formatDuration(left)}</strong>
        </>
      ) : (
        'Starting now'
      )}
    </Text>
  );
}
