import {
  Anchor,
  Badge,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import { SLOT_STATES, type JobState, type QueueSummary } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { isQueueControllable } from '../../api/queues';
import { formatDuration, formatPeriod } from '../../lib/time';
import { useNow } from '../../lib/use-now';
import { QueueChangeNote, QueueControls } from './QueueControls';
import { QueueShare, type QueueShareFigures } from './QueueShare';

const WAITING: JobState[] = ['submitted', 'pending', 'runnable'];
const ACTIVE: JobState[] = ['starting', 'running', 'cancelling'];
const FINAL = ['completed', 'failed', 'timeout', 'cancelled', 'error'] as const;

const jobsLink = (queue: string, state: JobState) =>
  `/jobs?${new URLSearchParams({ queue, state })}`;

/**
 * The last hour's ended jobs: by when they ended on a service whose list filters by it (`ended`,
 * the jobs list's preset `1h`); elsewhere as near as creation time goes (a job created earlier
 * that ended in the hour is not there), never every job of that state since the queue began.
 */
const endedLastHourLink = (queue: string, state: JobState, byEnd: boolean) =>
  `/jobs?${new URLSearchParams({ queue, state, [byEnd ? 'ended' : 'created']: '1h' })}`;

/** One count, a link to exactly those jobs in the table. */
function Count({ queue, state, count }: { queue: string; state: JobState; count: number }) {
  return (
    <Anchor
      component={Link}
      to={jobsLink(queue, state)}
      underline="hover"
      c="inherit"
      data-testid={`count-${state}`}
      aria-label={`${count} ${state} in ${queue}`}
    >
      <Stack gap={0} align="center">
        <Text fw={700} size="lg" c={count > 0 ? undefined : 'dimmed'}>
          {count}
        </Text>
        <Text size="xs">{state}</Text>
      </Stack>
    </Anchor>
  );
}

function CountRow({
  summary,
  states,
  counts,
}: {
  summary: QueueSummary;
  states: readonly JobState[];
  counts: Partial<Record<JobState, number>>;
}) {
  return (
    <SimpleGrid cols={states.length} spacing={4}>
      {states.map((state) => (
        <Count key={state} queue={summary.queue} state={state} count={counts[state] ?? 0} />
      ))}
    </SimpleGrid>
  );
}

/** The job an operator opens first, when the service names one: a link, and for how long. */
function FirstToOpen({
  label,
  verb,
  job,
}: {
  label: string;
  verb: string;
  job: QueueSummary['oldest_waiting'];
}) {
  const now = useNow(Boolean(job));
  if (!job) return null;
  return (
    <Text size="sm" data-testid={`queue-${verb}`}>
      {label}: {/* Underlined: a link inside a sentence must not be told apart by colour alone. */}
      <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`} underline="always">
        {job.name}
      </Anchor>{' '}
      ({verb} {formatDuration(Math.max(0, now - Date.parse(job.since)))})
    </Text>
  );
}

/** How long the queue's finished jobs stay, when the service says (null: forever). */
function Retention({ seconds }: { seconds: number | null | undefined }) {
  if (seconds === undefined) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="queue-retention">
      Finished jobs kept {seconds === null ? 'forever' : formatPeriod(seconds)}
    </Text>
  );
}

/**
 * A queue at a glance: slots in use against its limit, its share and quota where the service
 * counts them, what waits, what ended lately.
 */
export function QueueCard({
  summary,
  share,
}: {
  summary: QueueSummary;
  share?: QueueShareFigures;
}) {
  const byEnd = useCapabilities().data?.endedFilter ?? false;
  const used = SLOT_STATES.reduce(
    (sum, state) => sum + (summary.now[state as keyof typeof summary.now] ?? 0),
    0,
  );
  const percent = summary.max_running > 0 ? Math.min(100, (used / summary.max_running) * 100) : 0;
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-label={`Queue ${summary.queue}`}
      data-testid="queue-card"
      data-queue={summary.queue}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {summary.queue}
          </Title>
          <Group gap={6}>
            {summary.paused && (
              <Badge color="yellow" data-testid="paused-badge">
                paused
              </Badge>
            )}
            <Badge variant="default">priority {summary.priority}</Badge>
          </Group>
        </Group>
        <Stack gap={4}>
          <Text size="sm" data-testid="slots">
            {used} of {summary.max_running} slots in use
            {summary.configured_max_running !== undefined &&
              summary.configured_max_running !== summary.max_running &&
              ` (configured: ${summary.configured_max_running})`}
          </Text>
          <Progress
            value={percent}
            color={percent >= 100 ? 'orange' : 'blue'}
            aria-label={`${used} of ${summary.max_running} slots in use`}
          />
        </Stack>
        {share && <QueueShare figures={share} />}
        <QueueChangeNote summary={summary} />
        <Text size="xs" c="dimmed">
          Now
        </Text>
        <CountRow summary={summary} states={[...WAITING, ...ACTIVE]} counts={summary.now} />
        <FirstToOpen label="Oldest waiting" verb="waiting" job={summary.oldest_waiting} />
        <FirstToOpen label="Longest running" verb="running" job={summary.longest_running} />
        <Text size="xs" c="dimmed">
          Ended in the last hour (last day)
        </Text>
        <SimpleGrid cols={FINAL.length} spacing={4}>
          {FINAL.map((state) => (
            <Stack key={state} gap={0} align="center">
              <Anchor
                component={Link}
                to={endedLastHourLink(summary.queue, state, byEnd)}
                underline="hover"
                c="inherit"
                data-testid={`ended-${state}`}
                aria-label={`${summary.last_hour[state]} ${state} in the last hour, ${summary.last_day[state]} in the last day, in ${summary.queue}: list those ${byEnd ? 'ended' : 'created'} in the last hour`}
              >
                <Stack gap={0} align="center">
                  <Text fw={700} c={summary.last_hour[state] > 0 ? undefined : 'dimmed'}>
                    {summary.last_hour[state]}{' '}
                    <Text span size="xs" c="dimmed">
                      ({summary.last_day[state]})
                    </Text>
                  </Text>
                  <Text size="xs">{state}</Text>
                </Stack>
              </Anchor>
            </Stack>
          ))}
        </SimpleGrid>
        {!byEnd && (
          <Text size="xs" c="dimmed">
            Each links to those created in the last hour (the list filters by creation time).
          </Text>
        )}
        <Retention seconds={summary.retention_seconds} />
        {isQueueControllable(summary) && <QueueControls summary={summary} />}
      </Stack>
    </Card>
  );
}
