import { Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { JobRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { jobTransitionsQuery } from '../../api/queries';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { observedStore } from '../../lib/history';

export function JobTimeline({ job }: { job: JobRecord }) {
  const observed = observedStore.use()[job.id] ?? [];
  const offered = useCapabilities().data?.transitions ?? false;
  const recorded = useQuery({ ...jobTransitionsQuery(job), enabled: offered });
  return (
    <Stack>
      <Text fw={500}>Seen by this browser</Text>
      <Timeline
        active={observed.length - 1}
        bulletSize={14}
        lineWidth={2}
        data-testid="observed-timeline"
      >
        {observed.map((entry) => (
          <Timeline.Item
            key={`${entry.state}-${entry.at}`}
            title={<StateBadge state={entry.state} size="sm" />}
          >
            <Text size="xs" c="dimmed">
              <TimeText iso={entry.at} />
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      {recorded.data && (
        <>
          <Text fw={500}>Recorded by the service</Text>
          <Timeline active={recorded.data.length - 1} bulletSize={14} lineWidth={2}>
            {recorded.data.map((t) => (
              <Timeline.Item key={`${t.to}-${t.at}`} title={<StateBadge state={t.to} size="sm" />}>
                <Text size="xs" c="dimmed">
                  <TimeText iso={t.at} />
                </Text>
                {t.note && <Text size="xs">{t.note}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
        </>
      )}
    </Stack>
  );
}
