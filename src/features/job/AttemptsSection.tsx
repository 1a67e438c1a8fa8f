import { Badge, Button, Group, Modal, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { isFinalState, type JobRecord } from '../../../contract';
import {
  currentAttempt,
  useAttemptLogs,
  useJobAttempts,
  type Attempt,
  type AttemptsAnswer,
} from '../../api/attempts';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { reasonText } from '../../lib/retry-text';
import { formatBytes, formatDuration } from '../../lib/time';
import { Countdown } from './Countdown';
import { LogReader } from './logs/LogReader';
import { UsageFacts } from './UsageFacts';

/** Whether a job's attempts are worth a section: it may be retried, or it was. */
export const showsAttempts = (answer: AttemptsAnswer) =>
  answer.attempts_max > 1 || answer.items.length > 0;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" span>
      <Text span size="sm" c="dimmed">
        {label}
      </Text>{' '}
      {children}
    </Text>
  );
}

/**
 * How an attempt ended: a preempted one (a lender took back its quota; the service runs the job
 * again) reads as preempted, not as the state its record keeps.
 */
function AttemptBadge({ item }: { item: Attempt }) {
  if (item.reason !== 'preempted') return <StateBadge state={item.state} size="sm" />;
  return (
    <Badge color="grape" size="sm" variant="filled" data-testid="preempted-badge">
      preempted
    </Badge>
  );
}

function AttemptFacts({ item }: { item: Attempt }) {
  const duration =
    item.started_at && item.finished_at
      ? formatDuration(Date.parse(item.finished_at) - Date.parse(item.started_at))
      : '—';
  return (
    <Stack gap={2}>
      <Group gap="md" data-testid="attempt-facts">
        <Fact label="Exit code">{item.exit_code ?? '—'}</Fact>
        <Fact label="Reason">{item.reason ? reasonText(item.reason) : '—'}</Fact>
        <Fact label="Node">{item.node ?? '—'}</Fact>
        {item.memory_bytes != null && <Fact label="Memory">{formatBytes(item.memory_bytes)}</Fact>}
        <Fact label="Duration">{duration}</Fact>
        <Fact label="Started">
          <TimeText iso={item.started_at} />
        </Fact>
      </Group>
      {item.usage && <UsageFacts usage={item.usage} />}
      {item.note && <Text size="sm">{item.note}</Text>}
      {item.retried && <Text size="sm">Retried: another attempt followed.</Text>}
    </Stack>
  );
}

/** An earlier attempt's output, as the service kept it when that attempt ended. */
function AttemptOutput({ job, attempt }: { job: JobRecord; attempt: number }) {
  const logs = useAttemptLogs(job.id, attempt);
  if (logs.isPending) return <Text c="dimmed">Loading the output…</Text>;
  if (logs.isError)
    return (
      <Text c="var(--mantine-color-error)">The output could not be read: {logs.error.message}</Text>
    );
  if (logs.data === null) return <Text c="dimmed">No output was kept for this attempt.</Text>;
  const lines = logs.data.lines;
  return (
    <LogReader
      logs={logs.data}
      fileName={`${job.name}-attempt-${attempt}.log`}
      keptLines={() => Promise.resolve(lines)}
    />
  );
}

/**
 * The job's attempts (extension of retries), oldest first: how each ended, where, and its output;
 * the one it is on now, whose output is the page's log viewer; while it waits out its backoff,
 * when the next one starts. Only for a job that may be retried or was; nothing from a service
 * without retries.
 */
export function AttemptsSection({
  job,
  onShowCurrentOutput,
}: {
  job: JobRecord;
  /** Brings the page's log viewer (the current attempt's output) into view. */
  onShowCurrentOutput: () => void;
}) {
  const { attempts } = useJobAttempts(job);
  const [shown, setShown] = useState<number | null>(null);
  if (!attempts || !showsAttempts(attempts)) return null;
  const final = isFinalState(job.state);
  const current = currentAttempt(attempts, job.state);
  const of = `Attempt ${current} of ${attempts.attempts_max}`;
  const waiting = !final && attempts.next_attempt_at !== null;
  const currentOutput = (
    <Button
      component="a"
      href="#job-output"
      variant="subtle"
      size="compact-sm"
      onClick={onShowCurrentOutput}
      aria-label={`Output (logs below), attempt ${current}`}
    >
      Output (logs below)
    </Button>
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="attempts-title">
      <Stack gap="sm">
        <Group gap="lg">
          <Title order={3} size="h4" id="attempts-title">
            Attempts
          </Title>
          <Text data-testid="attempt-of">{of}</Text>
        </Group>
        {waiting && (
          <Countdown at={attempts.next_attempt_at!} what={of} testId="attempt-countdown" />
        )}
        <Timeline
          active={final ? attempts.items.length - 1 : attempts.items.length}
          bulletSize={14}
          lineWidth={2}
          data-testid="attempts-timeline"
        >
          {attempts.items.map((item) => {
            const last = final && item.attempt === current;
            return (
              <Timeline.Item
                key={item.attempt}
                data-testid="attempt-item"
                title={
                  <Group gap="xs">
                    <Text fw={500}>Attempt {item.attempt}</Text>
                    <AttemptBadge item={item} />
                  </Group>
                }
              >
                <Stack gap={4}>
                  <AttemptFacts item={item} />
                  <Group>
                    {last ? (
                      currentOutput
                    ) : (
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        onClick={() => setShown(item.attempt)}
                        aria-label={`Output of attempt ${item.attempt}`}
                      >
                        Output
                      </Button>
                    )}
                  </Group>
                </Stack>
              </Timeline.Item>
            );
          })}
          {!final && (
            <Timeline.Item
              data-testid="attempt-item"
              title={
                <Group gap="xs">
                  <Text fw={500}>Attempt {current}</Text>
                  <StateBadge state={job.state} size="sm" />
                  <Text size="sm">(now)</Text>
                </Group>
              }
            >
              {waiting ? (
                <Text size="sm">Waits for its backoff before it starts.</Text>
              ) : (
                <Group>{currentOutput}</Group>
              )}
            </Timeline.Item>
          )}
        </Timeline>
      </Stack>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={`Output of attempt ${shown ?? ''}`}
        size="xl"
      >
        {shown !== null && <AttemptOutput job={job} attempt={shown} />}
      </Modal>
    </Paper>
  );
}
