import { SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import type { JobRecord } from '../../../contract';
import { TimeText } from '../../components/TimeText';
import { Countdown } from './Countdown';
import { ExecutionPanel } from './ExecutionPanel';
import { JobHeader } from './JobHeader';
import { JobNotice } from './JobNotice';
import { JobTimeline } from './JobTimeline';
import { LifecycleStepper } from './LifecycleStepper';
import { LogViewer } from './logs/LogViewer';

function RecordTimes({ job }: { job: JobRecord }) {
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

export function JobView({ job }: { job: JobRecord }) {
  return (
    <Stack>
      <JobHeader job={job} />
      <JobNotice job={job} />
      {job.state === 'pending' && job.schedule_at && <Countdown at={job.schedule_at} />}
      <LifecycleStepper job={job} />
      <RecordTimes job={job} />
      <ExecutionPanel job={job} />
      {/* Only the shown tab is mounted: hidden logs are not read every poll. */}
      <Tabs defaultValue="logs" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="logs">Logs</Tabs.Tab>
          <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="logs" pt="md">
          <LogViewer job={job} />
        </Tabs.Panel>
        <Tabs.Panel value="timeline" pt="md">
          <JobTimeline job={job} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
