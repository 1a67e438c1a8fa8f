import { Alert, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCapabilities } from '../../api/capabilities';
import { useLiveUpdates } from '../../api/events';
import { scheduleListQuery } from '../../api/schedules';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LiveIndicator } from '../../components/LiveIndicator';
import { useNow } from '../../lib/use-now';
import { ScheduleCard } from './ScheduleCard';

function NoSchedules() {
  return (
    <Alert color="gray" title="This service offers no schedules" data-testid="no-schedules">
      It speaks the job API but declares no recurring schedules to show here.
    </Alert>
  );
}

function ScheduleList({ events }: { events: boolean }) {
  const stream = useLiveUpdates(events);
  const schedules = useQuery(scheduleListQuery(stream));
  // The countdowns to the next firings tick while a schedule is active.
  const now = useNow(schedules.data?.some((schedule) => !schedule.paused) ?? false);
  if (schedules.isPending) return <Loader aria-label="Loading schedules" />;
  if (schedules.isError && !schedules.data)
    return <ErrorAlert error={schedules.error} title="The schedules could not be read" />;
  if (schedules.data === null) return <NoSchedules />;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          The project&apos;s configuration declares them; each firing submits an ordinary job.
        </Text>
        <LiveIndicator status={stream} />
      </Group>
      {schedules.isError && (
        <ErrorAlert error={schedules.error} title="The schedules could not be read again" />
      )}
      {schedules.data!.length === 0 ? (
        <Text c="dimmed">This project declares no schedule.</Text>
      ) : (
        schedules.data!.map((schedule) => (
          <ScheduleCard key={schedule.name} schedule={schedule} now={now} />
        ))
      )}
    </Stack>
  );
}

/** The project's recurring schedules: when each fires next, what it did lately, pause and resume. */
export default function SchedulesPage() {
  const capabilities = useCapabilities();
  return (
    <Stack maw={1400}>
      <Title order={2}>Schedules</Title>
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : capabilities.data?.schedules ? (
        <ScheduleList events={capabilities.data.events} />
      ) : (
        <NoSchedules />
      )}
    </Stack>
  );
}
