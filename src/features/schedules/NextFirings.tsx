import { List, Text } from '@mantine/core';
import type { Schedule } from '../../../contract';
import { formatTime } from '../../lib/time';
import { useSettings } from '../../lib/settings';
import { untilFiring } from './firing-times';

/** When it fires next: how long until, and the time in the chosen zone. */
export function NextFirings({ schedule, now }: { schedule: Schedule; now: number }) {
  const { timeZone } = useSettings();
  if (schedule.paused)
    return (
      <Text size="sm" c="dimmed">
        None while paused.
      </Text>
    );
  if (schedule.next_firings.length === 0)
    return (
      <Text size="sm" c="dimmed">
        It fires no more.
      </Text>
    );
  return (
    <List
      size="sm"
      listStyleType="none"
      spacing={2}
      aria-label={`Next firings of ${schedule.name}`}
    >
      {schedule.next_firings.map((iso) => (
        <List.Item key={iso} data-testid="next-firing">
          <Text span fw={500}>
            {untilFiring(iso, now)}
          </Text>{' '}
          <Text span c="dimmed" size="sm">
            · <time dateTime={iso}>{formatTime(iso, timeZone)}</time>
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
