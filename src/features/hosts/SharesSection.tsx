import { Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ProjectShareRecord, ShareList } from '../../../contract';
import { sharesQuery } from '../../api/hosts';
import { ErrorAlert } from '../../components/ErrorAlert';

const RESOURCE_WORDS: Record<ProjectShareRecord['dominant']['resource'], string> = {
  cpus: 'CPUs',
  memory_bytes: 'memory',
  gpus: 'GPUs',
  jobs: 'slots',
};

const percent = (fraction: number) => `${Math.round(fraction * 100)} %`;

/** One project: its due share, and what it holds now of the capacity it holds most of. */
function ShareCard({ share }: { share: ProjectShareRecord }) {
  const { fraction, resource } = share.dominant;
  const holds = `holds ${percent(fraction)} of ${RESOURCE_WORDS[resource]}`;
  const due = `share ${percent(share.share)} (weight ${share.weight})`;
  return (
    <Card withBorder data-testid="share" aria-label={`Share of ${share.project}`}>
      <Stack gap={4}>
        <Group justify="space-between">
          <Text fw={600} ff="monospace">
            {share.project}
          </Text>
          <Text size="sm">{due}</Text>
        </Group>
        <Text size="sm" c={share.active ? undefined : 'dimmed'}>
          {share.active ? holds : 'no work now: its share is lent to the others'}
        </Text>
        <Progress
          value={Math.min(100, fraction * 100)}
          color={fraction + 1e-9 >= share.share ? 'orange' : 'blue'}
          aria-label={`${share.project} ${holds}, ${due}`}
        />
        {share.queues.length > 1 &&
          share.queues.map((queue) => (
            <Text key={queue.queue} size="xs" c="dimmed">
              {queue.queue}: weight {queue.weight}, holds {percent(queue.dominant.fraction)}
            </Text>
          ))}
      </Stack>
    </Card>
  );
}

/** Fair share between projects (docs/guides/fair-share.md), below the hosts. */
export function SharesSection({ enabled }: { enabled: boolean }) {
  const shares = useQuery({ ...sharesQuery, enabled });
  if (!enabled) return null;
  let body;
  if (shares.isError) {
    body = <ErrorAlert error={shares.error} title="The shares could not be read" />;
  } else if (!shares.data) {
    return null;
  } else {
    body = <ShareCards list={shares.data} />;
  }
  return (
    <Stack gap="xs">
      <Title order={3}>Fair share</Title>
      <Text c="dimmed" size="sm">
        Room that frees goes to the project furthest below its share: its weight over those of the
        projects with work. Orange: at its share.
      </Text>
      {body}
    </Stack>
  );
}

function ShareCards({ list }: { list: ShareList }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
      {list.projects.map((share) => (
        <ShareCard key={share.project} share={share} />
      ))}
    </SimpleGrid>
  );
}
