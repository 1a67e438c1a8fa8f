import { Card, Group, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProjectShareRecord, ShareList } from '../../../contract';
import { sharesQuery } from '../../api/hosts';
import { ErrorAlert } from '../../components/ErrorAlert';
import { quotaWords } from '../../lib/quota-words';
import { lazyPage } from '../../lib/lazy-page';
import { dueWords, holdsWords, percent } from '../../lib/share-words';
import type { ShareHour } from './ShareDayChart';

const ShareDayChart = lazyPage(() => import('./ShareDayChart'));

const hourLabel = (start: string) => `${String(new Date(start).getHours()).padStart(2, '0')}:00`;
const tenths = (fraction: number) => Math.round(fraction * 1000) / 10;

/** The last day by hour (where the service counts it): its words, and the chart of them. */
function ShareDay({ points }: { points: NonNullable<ProjectShareRecord['last_day']> }) {
  const hours: ShareHour[] = points.map((p) => ({
    label: hourLabel(p.start),
    average: tenths(p.dominant.average),
    peak: tenths(p.dominant.peak),
  }));
  const peak = Math.max(0, ...points.map((p) => p.dominant.peak));
  const busiest = Math.max(0, ...points.map((p) => p.dominant.average));
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" data-testid="share-last-day">
        Last day: at most {percent(peak)} of a capacity held; the busiest hour averaged{' '}
        {percent(busiest)}
      </Text>
      <Suspense fallback={<Loader size="xs" aria-label="Loading the chart" />}>
        <ShareDayChart hours={hours} />
      </Suspense>
    </Stack>
  );
}

/** One project: its due share, and what it holds now of the capacity it holds most of. */
function ShareCard({ share }: { share: ProjectShareRecord }) {
  const { fraction } = share.dominant;
  const holds = holdsWords(share.dominant);
  const due = dueWords(share);
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
        {share.quota && (
          <Text size="sm" data-testid="quota">
            {quotaWords(share.quota, share.in_use)}
          </Text>
        )}
        {share.last_day && <ShareDay points={share.last_day} />}
        {(share.queues.length > 1 || share.queues.some((q) => q.quota)) &&
          share.queues.map((queue) => (
            <Text key={queue.queue} size="xs" c="dimmed">
              {queue.queue}: weight {queue.weight}, holds {percent(queue.dominant.fraction)}
              {queue.quota && `; ${quotaWords(queue.quota, queue.in_use)}`}
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
        projects with work. Orange: at its share. A quota, where set, is what it may hold at once,
        with what it borrows of the others' unused quota or lends of its own.
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
