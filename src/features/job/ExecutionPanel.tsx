import {
  Badge,
  Button,
  Code,
  Collapse,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useSessionStorage } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { quote } from 'shell-quote';
import { isFinalState, type JobExecution, type JobRecord } from '../../../contract';
import { currentAttempt, useJobAttempts, type AttemptsAnswer } from '../../api/attempts';
import { useCapabilities } from '../../api/capabilities';
import type { JobExecution as Execution } from '../../../contract';
import { jobExecutionQuery } from '../../api/queries';
import { LabelBadges } from '../../components/LabelBadges';
import { TimeText } from '../../components/TimeText';
import { strategyText } from '../../lib/retry-text';
import { formatBytes, formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';
import { ActorLines } from './ActorLines';
import { RecordTimes } from './RecordTimes';
import { UsageFacts } from './UsageFacts';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

/** The recorded duration, or the time so far while it runs. */
function Duration({ execution }: { execution: JobExecution }) {
  const running = execution.started_at !== null && execution.finished_at === null;
  const now = useNow(running);
  if (execution.started_at === null) return <Text c="dimmed">not started</Text>;
  const ms = running ? now - Date.parse(execution.started_at) : (execution.duration_ms ?? 0);
  return (
    <Text data-testid="execution-duration">
      {formatDuration(ms)}
      {running && ' so far'}
    </Text>
  );
}

function EnvTable({ env }: { env: JobExecution['env'] }) {
  if (env.length === 0) return <Text c="dimmed">none</Text>;
  return (
    <Table withTableBorder fz="sm" aria-label="Environment">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Variable</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {env.map((variable) => (
          <Table.Tr key={variable.name}>
            <Table.Td ff="monospace">{variable.name}</Table.Td>
            <Table.Td>
              {variable.sensitive ? (
                <Badge variant="default">sensitive, not shown</Badge>
              ) : (
                <Code>{variable.value}</Code>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * "Attempt 2 of 3" for a job that may be retried (or was): what the execution says, else what
 * the attempts say; null for a job run once by its strategy, or a service without retries.
 */
function attemptOf(
  job: JobRecord,
  execution: Execution | null | undefined,
  attempts: AttemptsAnswer | null,
): string | null {
  if (!attempts) return null;
  const max = execution?.attempts_max ?? attempts.attempts_max;
  if (max <= 1 && attempts.items.length === 0) return null;
  const attempt = execution?.attempt ?? currentAttempt(attempts, job.state);
  return `Attempt ${attempt} of ${max}`;
}

/** The facts a reader looks for first, on the panel's first line. */
function ExecutionSummary({
  execution,
  ended,
  attempt,
}: {
  execution: JobExecution;
  /** Whether the header shows the job ended: its exit code shows with that, never before. */
  ended: boolean;
  attempt: string | null;
}) {
  return (
    <Group gap="lg" data-testid="execution-summary">
      {attempt && <Text data-testid="execution-attempt">{attempt}</Text>}
      <Group gap={6}>
        <Text size="sm" c="dimmed">
          Exit code
        </Text>
        <Text data-testid="execution-exit-code">{ended ? (execution.exit_code ?? '—') : '—'}</Text>
      </Group>
      <Group gap={6}>
        <Text size="sm" c="dimmed">
          Duration
        </Text>
        <Duration execution={execution} />
      </Group>
      {execution.usage && <UsageFacts usage={execution.usage} />}
    </Group>
  );
}

function ExecutionFacts({ execution }: { execution: JobExecution }) {
  const where = [execution.engine, execution.instance, execution.node].filter(Boolean).join(' · ');
  return (
    <>
      <Fact label="Command (parameters substituted)">
        <Code block data-testid="execution-command">
          {quote(execution.command)}
        </Code>
      </Fact>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Fact label="Image">
          <Code>{execution.image}</Code>
        </Fact>
        <Fact label="Where it ran">
          <Text>{where}</Text>
        </Fact>
        <Fact label="Started">
          <TimeText iso={execution.started_at} />
        </Fact>
        <Fact label="Finished">
          <TimeText iso={execution.finished_at} />
        </Fact>
        <Fact label="Definition · queue">
          <Text>
            {execution.job_definition} · {execution.job_queue}
          </Text>
        </Fact>
        <Fact label="Limits">
          <Text>
            {execution.limits.cpus} CPU · {formatBytes(execution.limits.memory_bytes)} ·{' '}
            {formatDuration(execution.limits.timeout_seconds * 1000)} timeout
          </Text>
        </Fact>
      </SimpleGrid>
      <Fact label="Environment">
        <EnvTable env={execution.env} />
      </Fact>
    </>
  );
}

/**
 * What actually ran and where (extension): the exit code and duration in sight, the rest (and the
 * record's times) folded away by default so that the output gets the height; open or closed stays
 * as the reader left it for the session. A spec-only service gets a line saying so.
 */
export function ExecutionPanel({ job }: { job: JobRecord }) {
  const [expanded, setExpanded] = useSessionStorage({
    key: 'jobdeck.executionDetailsExpanded',
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  const detailsId = useId();
  const capabilities = useCapabilities();
  const offered = capabilities.data?.execution ?? false;
  const execution = useQuery({ ...jobExecutionQuery(job), enabled: offered });
  const { attempts } = useJobAttempts(job);
  const attempt = attemptOf(job, execution.data, attempts);
  let summary: ReactNode;
  if (capabilities.isPending) summary = <Text c="dimmed">Loading…</Text>;
  else if (!offered || execution.data === null)
    summary = <Text c="dimmed">This service does not describe executions.</Text>;
  else if (execution.isPending) summary = <Text c="dimmed">Loading…</Text>;
  else if (execution.isError)
    summary = <Text c="red">The execution could not be read: {execution.error.message}</Text>;
  // The panel and the header read apart (the execution, Job Detail): under load the execution's
  // answer can come a render before the record's, and an exit code beside `cancelling` misleads.
  else
    summary = (
      <ExecutionSummary
        execution={execution.data}
        ended={isFinalState(job.state)}
        attempt={attempt}
      />
    );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="execution-title">
      <Group justify="space-between" gap="sm">
        <Group gap="lg">
          <Title order={3} size="h4" id="execution-title">
            Execution
          </Title>
          {summary}
          <LabelBadges labels={execution.data?.labels} />
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Hide details' : 'Show details'}
        </Button>
      </Group>
      <ActorLines execution={execution.data} />
      {/* Kept in the page while folded: its facts stay current, and open at once. */}
      <Collapse expanded={expanded} keepMountedMode="display-none" id={detailsId}>
        <Stack pt="md">
          {execution.data && <ExecutionFacts execution={execution.data} />}
          {attempts?.retry && (
            <Fact label="Retry strategy">
              <Text data-testid="retry-strategy">{strategyText(attempts.retry)}</Text>
            </Fact>
          )}
          <RecordTimes job={job} />
        </Stack>
      </Collapse>
    </Paper>
  );
}
