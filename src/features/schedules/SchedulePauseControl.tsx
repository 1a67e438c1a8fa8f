import type { Schedule } from '../../../contract';
import { useCan } from '../../api/permissions';
import { usePauseSchedule, useResumeSchedule } from '../../api/schedules';
import { PauseControl } from '../../components/PauseControl';

export function SchedulePauseControl({ schedule }: { schedule: Schedule }) {
  const pause = usePauseSchedule();
  const resume = useResumeSchedule();
  const permission = useCan('pauseSchedule');
  return (
    <PauseControl
      permission={permission}
      name={schedule.name}
      paused={schedule.paused}
      pause={pause}
      resume={resume}
      words={{
        noun: 'schedule',
        paused: `${schedule.name} fires no more until it is resumed.`,
        resumed: `${schedule.name} fires again from its next firing on.`,
        keep: 'Keep it running',
      }}
    />
  );
}
