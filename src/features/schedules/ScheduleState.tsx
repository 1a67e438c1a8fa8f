import { Badge, Text } from '@mantine/core';
import type { Schedule } from '../../../contract';

/** Active or Paused, and why it was paused when someone said. */
export function ScheduleState({ schedule }: { schedule: Schedule }) {
  return (
    <>
      <Badge
        color={schedule.paused ? 'yellow' : 'green'}
        variant="filled"
        data-testid="schedule-state"
        data-state={schedule.paused ? 'paused' : 'active'}
      >
        {schedule.paused ? 'Paused' : 'Active'}
      </Badge>
      {schedule.paused && schedule.paused_reason && (
        <Text size="sm" data-testid="paused-reason">
          Paused: {schedule.paused_reason}
        </Text>
      )}
    </>
  );
}
