import { Code, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { JobRecord } from '../../../contract';
import { jobLogsQuery } from '../../api/queries';

export function LogsPanel({ job }: { job: JobRecord }) {
  const logs = useQuery(jobLogsQuery(job));
  if (!logs.isEnabled) return <Text c="dimmed">Logs appear once the job ends.</Text>;
  if (logs.isPending) return <Text c="dimmed">Loading logs…</Text>;
  if (logs.isError) return <Text c="red">Logs could not be read: {logs.error.message}</Text>;
  if (logs.data === null) return <Text c="dimmed">This service does not offer logs.</Text>;
  if (job.state === 'running' && !logs.data.text)
    return <Text c="dimmed">Logs are kept when the job ends.</Text>;
  return (
    <Stack gap="xs">
      {logs.data.truncated && (
        <Text size="xs" c="dimmed">
          Only the end of the output is kept.
        </Text>
      )}
      <ScrollArea.Autosize mah={400}>
        <Code block data-testid="job-logs">
          {logs.data.text || '(no output)'}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}
