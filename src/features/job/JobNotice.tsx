import { Alert, Text } from '@mantine/core';
import type { JobRecord } from '../../../contract';
import { stateColor } from '../../components/StateBadge';
import { useCancellationNotice } from './CancelControl';

/**
 * What the page has to tell about the job, in one alert: the cancellation this browser asked for
 * and the service's note. Two would stack, often in the same colour, saying half each.
 */
export function JobNotice({ job }: { job: JobRecord }) {
  const cancellation = useCancellationNotice(job);
  const note = job.system_note;
  if (cancellation)
    return (
      <Alert
        color={cancellation.color}
        title={cancellation.title}
        role={cancellation.role}
        data-testid="cancel-status"
      >
        {cancellation.body}
        {note && (
          <Text size="sm" mt="xs" data-testid="system-note">
            Note from the service: {note}
          </Text>
        )}
      </Alert>
    );
  if (!note) return null;
  return (
    <Alert color={stateColor(job.state)} title="Note from the service" data-testid="system-note">
      {note}
    </Alert>
  );
}
