import { Text, Tooltip } from '@mantine/core';
import { dayjs, formatTime, shortAgo } from '../lib/time';
import { useSettings } from '../lib/settings';

/**
 * A time in the chosen zone, the other zone one hover (or focus) away. Given `relativeTo` (the
 * caller's clock), it reads "3 minutes ago" instead, the exact time in the chosen zone on hover;
 * `short`: "3 min ago", for a narrow column.
 */
export function TimeText({
  iso,
  relativeTo,
  short = false,
}: {
  iso: string | null;
  relativeTo?: number;
  short?: boolean;
}) {
  const { timeZone } = useSettings();
  if (!iso)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  const other = timeZone === 'utc' ? 'local' : 'utc';
  // The service's clock can run a moment ahead of the browser's: never "in a few seconds".
  const at = relativeTo === undefined ? 0 : Math.min(Date.parse(iso), relativeTo);
  const shown =
    relativeTo === undefined
      ? formatTime(iso, timeZone)
      : short
        ? shortAgo(relativeTo - at)
        : dayjs(at).from(relativeTo);
  return (
    <Tooltip label={formatTime(iso, relativeTo === undefined ? other : timeZone)} withArrow>
      <Text span tabIndex={0} style={{ textDecoration: 'underline dotted' }}>
        <time dateTime={iso}>{shown}</time>
      </Text>
    </Tooltip>
  );
}
