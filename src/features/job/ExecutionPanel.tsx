import { Badge, Code, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { quote } from 'shell-quote';
import type { JobExecution, JobRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { jobExecutionQuery } from '../../api/queries';
import { TimeText } from '../../components/TimeText';
import { formatBytes, formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

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

function ExecutionFacts({ execution }: { execution: JobExecution }) {
  const where = [execution.engine, execution.instance, execution.node].filter(Boolean).join(' · ');
  return (
    <Stack>
      <Fact label="Command (parameters substituted)">
        <Code block data-testid="execution-command">
          {quote(execution.command)}
        </Code>
      </Fact>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Fact label="Image">
          <Code>{execution.image}</Code>
        </Fact>
        <Fact label="Exit code">
          <Text data-testid="execution-exit-code">{execution.exit_code ?? '—'}</Text>
        </Fact>
        <Fact label="Duration">
          <Duration execution={execution} />
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
    </Stack>
  );
}

/** What actually ran and where (extension); a spec-only service gets a line saying so. */
export function ExecutionPanel({ job }: { job: JobRecord }) {
  const capabilities = useCapabilities();
  const offered = capabilities.data?.execution ?? false;
  const execution = useQuery({ ...jobExecutionQuery(job), enabled: offered });
  let body: ReactNode;
  if (capabilities.isPending) body = <Text c="dimmed">Loading…</Text>;
  else if (!offered || execution.data === null)
    body = <Text c="dimmed">This service does not describe executions.</Text>;
  else if (execution.isPending) body = <Text c="dimmed">Loading…</Text>;
  else if (execution.isError)
    body = <Text c="red">The execution could not be read: {execution.error.message}</Text>;
  else body = <ExecutionFacts execution={execution.data} />;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="execution-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="execution-title">
          Execution
        </Title>
        {body}
      </Stack>
    </Paper>
  );
}
