import { Text, Tooltip } from '@mantine/core';
import { dayjs, formatTime } from '../lib/time';
import { useSettings } from '../lib/settings';

/**
 * A time in the chosen zone, the other zone one hover (or focus) away. Given `relativeTo` (the
 * caller's clock), it reads "3 minutes ago" instead, the exact time in the chosen zone on hover.
 */
export function TimeText({ iso, relativeTo }: { iso: string | null; relativeTo?: number }) {
  const { timeZone } = useSettings();
  if (!iso)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  const other = timeZone === 'utc' ? 'local' : 'utc';
  // The service's clock can run a moment ahead of the browser's: never "in a few seconds".
  const shown =
    relativeTo === undefined
      ? formatTime(iso, timeZone)
      : dayjs(Math.min(Date.parse(iso), relativeTo)).from(relativeTo);
  return (
    <Tooltip label={formatTime(iso, relativeTo === undefined ? other : timeZone)} withArrow>
      <Text span tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
        <time dateTime={iso}>{shown}</time>
      </Text>
    </Tooltip>
  );
}
