import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { JobRecord } from '../../../contract';
import { TimeText } from '../../components/TimeText';

/** The job record's own times: created, last changed, scheduled. */
export function RecordTimes({ job }: { job: JobRecord }) {
  const times = [
    ['Created', job.created_at],
    ['Updated', job.updated_at],
    ['Scheduled', job.schedule_at],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      {times.map(([label, iso]) => (
        <Stack gap={2} key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <TimeText iso={iso} />
        </Stack>
      ))}
    </SimpleGrid>
  );
}
