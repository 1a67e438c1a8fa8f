import { Text, Tooltip } from '@mantine/core';
import { formatTime } from '../lib/time';
import { useSettings } from '../lib/settings';

/** A time in the chosen zone, the other zone one hover (or focus) away. */
export function TimeText({ iso }: { iso: string | null }) {
  const { timeZone } = useSettings();
  if (!iso)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  const other = timeZone === 'utc' ? 'local' : 'utc';
  return (
    <Tooltip label={formatTime(iso, other)} withArrow>
      <Text span tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
        <time dateTime={iso}>{formatTime(iso, timeZone)}</time>
      </Text>
    </Tooltip>
  );
}
