import { Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isFinalState, type JobRecord } from '../../../../contract';
import { currentAttempt, useJobAttempts } from '../../../api/attempts';
import { useCapabilities } from '../../../api/capabilities';
import { jobKeys } from '../../../api/keys';
import { jobLogsQuery, keptLogLines, mayHaveLogs } from '../../../api/logs';
import { useSettings } from '../../../lib/settings';
import { LogReader } from './LogReader';

/** When a job the page watched ends, its output is read once more: the last lines and the tail kept. */
function useFinalRead(job: JobRecord) {
  const queryClient = useQueryClient();
  const wasRunning = useRef(!isFinalState(job.state));
  const final = isFinalState(job.state);
  useEffect(() => {
    if (final && wasRunning.current)
      void queryClient.invalidateQueries({ queryKey: jobKeys.logs(job.id) });
    wasRunning.current = !final;
  }, [final, job.id, queryClient]);
}

/** The job's output (extension), followed while it runs; a spec-only service gets a line saying so. */
export function LogViewer({ job }: { job: JobRecord }) {
  const capabilities = useCapabilities();
  const { pollSeconds } = useSettings();
  const offered = capabilities.data?.logs ?? false;
  // A retried job prints anew in each attempt: follow the one it is on (known before reading).
  const retries = useJobAttempts(job);
  const attempt = retries.attempts ? currentAttempt(retries.attempts, job.state) : null;
  const attemptKnown = !retries.offered || !retries.query.isPending;
  const logs = useQuery({
    ...jobLogsQuery(job, pollSeconds * 1000, attempt),
    enabled: offered && mayHaveLogs(job) && attemptKnown,
  });
  useFinalRead(job);

  if (capabilities.isPending) return <Text c="dimmed">Loading logs…</Text>;
  if (!offered || logs.data === null)
    return <Text c="dimmed">This service does not offer logs.</Text>;
  if (!mayHaveLogs(job)) return <Text c="dimmed">Output appears once the job runs.</Text>;
  if (logs.isPending) return <Text c="dimmed">Loading logs…</Text>;
  if (logs.isError && !logs.data)
    return <Text c="red">Logs could not be read: {logs.error.message}</Text>;
  return (
    <LogReader
      logs={logs.data!}
      fileName={`${job.name}.log`}
      keptLines={() => keptLogLines(job.id)}
    />
  );
}
