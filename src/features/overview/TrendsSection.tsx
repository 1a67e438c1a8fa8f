import {
  Anchor,
  Box,
  Card,
  Group,
  Loader,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { Link } from 'react-router';
import type {
  TrendBucket,
  TrendDuration,
  TrendIncident,
  TrendRange,
  Trends,
} from '../../../contract';
import { trendsQuery } from '../../api/trends';
import { ErrorAlert } from '../../components/ErrorAlert';
import { lazyPage } from '../../lib/lazy-page';
import { useSettings } from '../../lib/settings';
import { dayjs, formatSpan } from '../../lib/time';
import { INCIDENT_SHADE } from './incident-shade';
import type { TrendBar, TrendMark } from './TrendsChart';

const TrendsChart = lazyPage(() => import('./TrendsChart'));

const RANGES: { value: TrendRange; label: string }[] = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '30d', label: 'Last 30 days' },
];

/** Hours in the chosen time zone; days are the service's UTC days. */
function labelOf(bucket: TrendBucket, range: TrendRange, zone: 'local' | 'utc'): string {
  const start = dayjs(bucket.start);
  if (range === '30d') return start.utc().format('MMM D');
  return (zone === 'utc' ? start.utc() : start).format('HH:mm');
}

function Figure({ label, value }: { label: string; value: number | null }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700}>{value === null ? '—' : `≈ ${formatSpan(value)}`}</Text>
    </Stack>
  );
}

function Durations({ title, figures }: { title: string; figures: TrendDuration }) {
  return (
    <Stack gap={4} data-testid={`trends-${title.toLowerCase().replace(' ', '-')}`}>
      <Text size="sm" fw={500}>
        {title}{' '}
        <Text span size="xs" c="dimmed">
          ({figures.jobs} {figures.jobs === 1 ? 'job' : 'jobs'})
        </Text>
      </Text>
      <Group gap="lg">
        <Figure label="median (p50)" value={figures.p50_ms} />
        <Figure label="95th percentile" value={figures.p95_ms} />
      </Group>
    </Stack>
  );
}

/** The chart's numbers as a table, for screen readers and text browsers. */
function TrendsTable({ bars, caption }: { bars: TrendBar[]; caption: string }) {
  return (
    <VisuallyHidden>
      <Table data-testid="trends-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Completed</th>
            <th scope="col">Failed</th>
            <th scope="col">Cancelled</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>{bar.completed}</td>
              <td>{bar.failed}</td>
              <td>{bar.cancelled}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </VisuallyHidden>
  );
}

const INCIDENT_TEXT = {
  engine_unreachable: 'Container engine unreachable',
  queue_paused: 'Queue paused',
} as const;

/** The Failures page of the jobs an outage ended `error`: grouped by cause, each with a retry. */
function failuresLink({ errors_filter: filter }: TrendIncident): string {
  const search = new URLSearchParams({ state: 'error', queue: filter.queue });
  search.set('ended_after', filter.ended_after);
  if (filter.ended_before) search.set('ended_before', filter.ended_before);
  return `/failures?${search.toString()}`;
}

/** The bars an incident overlaps, from the first to the last (the current one while it lasts). */
function markOf(trends: Trends, bars: TrendBar[], incident: TrendIncident): TrendMark | null {
  const from = Date.parse(incident.started_at);
  const to = incident.ended_at === null ? Date.now() : Date.parse(incident.ended_at);
  const spanMs = trends.bucket_seconds * 1000;
  const overlapped = trends.buckets
    .map((bucket, i) => ({ start: Date.parse(bucket.start), label: bars[i]!.label }))
    .filter(({ start }) => start + spanMs > from && start <= to);
  if (overlapped.length === 0) return null;
  return { kind: incident.kind, from: overlapped[0]!.label, to: overlapped.at(-1)!.label };
}

function IncidentRow({ incident, zone }: { incident: TrendIncident; zone: 'local' | 'utc' }) {
  const at = (iso: string) =>
    (zone === 'utc' ? dayjs(iso).utc() : dayjs(iso)).format('MMM D HH:mm');
  const ended = incident.ended_at;
  const span = ended
    ? `${at(incident.started_at)} – ${at(ended)} (${formatSpan(Date.parse(ended) - Date.parse(incident.started_at))})`
    : `since ${at(incident.started_at)}, ongoing`;
  return (
    <Text size="sm" data-testid="trends-incident" data-kind={incident.kind}>
      <Box
        component="span"
        aria-hidden="true"
        display="inline-block"
        w={10}
        h={10}
        mr={6}
        bg={INCIDENT_SHADE[incident.kind]}
        style={{ borderRadius: 2 }}
      />
      <Text span fw={500}>
        {INCIDENT_TEXT[incident.kind]}
      </Text>{' '}
      · {span}
      {incident.note && ` · ${incident.note}`}
      {incident.ended_error > 0 && (
        <>
          {' '}
          · {incident.ended_error.toLocaleString('en')}{' '}
          {incident.ended_error === 1 ? 'job' : 'jobs'} ended error:{' '}
          <Anchor component={Link} to={failuresLink(incident)} underline="always">
            review and retry {incident.ended_error === 1 ? 'it' : 'them'}
          </Anchor>
        </>
      )}
    </Text>
  );
}

/** When the engine was unreachable or the queue paused in the range: marked on the chart too. */
function Incidents({ incidents, zone }: { incidents: TrendIncident[]; zone: 'local' | 'utc' }) {
  if (incidents.length === 0) return null;
  return (
    <Stack gap={4} data-testid="trends-incidents">
      <Text size="sm" fw={500}>
        Incidents in this range
      </Text>
      {incidents.map((incident) => (
        <IncidentRow
          key={`${incident.kind}-${incident.started_at}`}
          incident={incident}
          zone={zone}
        />
      ))}
    </Stack>
  );
}

function TrendsBody({ trends, zone }: { trends: Trends; zone: 'local' | 'utc' }) {
  const bars = trends.buckets.map((bucket) => ({
    label: labelOf(bucket, trends.range, zone),
    completed: bucket.completed,
    failed: bucket.failed,
    cancelled: bucket.cancelled,
  }));
  const per = trends.range === '24h' ? 'hour' : 'day (UTC)';
  const ended = bars.reduce((sum, bar) => sum + bar.completed + bar.failed + bar.cancelled, 0);
  const incidents = trends.incidents ?? [];
  const marks = incidents
    .map((incident) => markOf(trends, bars, incident))
    .filter((mark): mark is TrendMark => mark !== null);
  return (
    <Stack>
      <Text size="sm" data-testid="trends-summary">
        {ended} {ended === 1 ? 'job' : 'jobs'} ended in {trends.queue}, per {per}.
      </Text>
      <div aria-hidden="true">
        <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
          <TrendsChart bars={bars} marks={marks} />
        </Suspense>
      </div>
      <TrendsTable bars={bars} caption={`Jobs of ${trends.queue} ended per ${per}, by outcome`} />
      <Incidents incidents={incidents} zone={zone} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Durations title="Waiting time" figures={trends.wait} />
        <Durations title="Run time" figures={trends.run} />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        Failed counts timeouts and errors too. Times are approximate: each is the middle of the
        histogram bucket it falls in, within about a fifth either way.
      </Text>
    </Stack>
  );
}

/** Jobs ended per hour or day in one queue, by outcome, with their waiting and run times. */
export function TrendsSection({ queues }: { queues: string[] }) {
  const [picked, setPicked] = useState<string | null>(null);
  const [range, setRange] = useState<TrendRange>('24h');
  const { timeZone } = useSettings();
  const queue = picked !== null && queues.includes(picked) ? picked : queues[0];
  const trends = useQuery({ ...trendsQuery(queue ?? '', range), enabled: queue !== undefined });
  if (queue === undefined) return null;
  return (
    <Card withBorder component="section" aria-labelledby="trends-title" data-testid="trends">
      <Stack>
        <Group justify="space-between" align="flex-end">
          <Title order={3} id="trends-title">
            Trends
          </Title>
          <Group align="flex-end">
            <Select
              label="Queue"
              data={queues}
              value={queue}
              onChange={setPicked}
              allowDeselect={false}
              w={220}
            />
            <SegmentedControl
              aria-label="Range"
              data={RANGES}
              value={range}
              onChange={(value) => setRange(value as TrendRange)}
            />
          </Group>
        </Group>
        {trends.isPending ? (
          <Loader aria-label="Loading trends" />
        ) : trends.isError && !trends.data ? (
          <ErrorAlert error={trends.error} title="The trends could not be read" />
        ) : (
          <TrendsBody trends={trends.data} zone={timeZone} />
        )}
      </Stack>
    </Card>
  );
}
