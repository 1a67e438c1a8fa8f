import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { JobRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { jobExecutionQuery } from '../../api/queries';
import { stateColor } from '../../components/StateBadge';
import { waitingSentence, type StartEstimate } from '../../lib/waiting-text';
import { useCancellationNotice } from './CancelControl';

/** The estimate moves as jobs ahead start and end: read again this often while it waits. */
const ESTIMATE_POLL_MS = 15_000;

/** The service's start estimate for a job waiting for a slot; null without one (spec-only). */
function useStartEstimate(job: JobRecord): StartEstimate | null {
  const described = useCapabilities().data?.execution === true;
  const waiting = job.state === 'runnable';
  const execution = useQuery({
    ...jobExecutionQuery(job),
    enabled: described && waiting,
    refetchInterval: ESTIMATE_POLL_MS,
  });
  return (waiting && execution.data?.start_estimate) || null;
}

/**
 * What the page has to tell about the job, in one alert: the cancellation this browser asked for
 * and the service's note. Two would stack, often in the same colour, saying half each.
 */
export function JobNotice({ job }: { job: JobRecord }) {
  const cancellation = useCancellationNotice(job);
  const estimate = useStartEstimate(job);
  const waiting = waitingSentence(job, estimate);
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
  if (waiting)
    return (
      <Alert
        color={stateColor(job.state)}
        title="Why it is not running yet"
        data-testid="system-note"
      >
        {waiting}
      </Alert>
    );
  if (!note) return null;
  return (
    <Alert color={stateColor(job.state)} title="Note from the service" data-testid="system-note">
      {note}
    </Alert>
  );
}
