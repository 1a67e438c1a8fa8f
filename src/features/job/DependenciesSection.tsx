import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { DEPENDENCY_TYPE_WORDS, type DependencyStatus, type JobRecord } from '../../../contract';
import { hasDependencies, useJobDependencies, type DependencyEdge } from '../../api/dependencies';
import { StateBadge } from '../../components/StateBadge';

const STATUS_WORDS: Record<DependencyStatus, string> = {
  met: 'met',
  waiting: 'waiting',
  unmeetable: 'can no longer be met',
};

/** One side of the job's dependencies: a titled table of the jobs on it. */
function EdgeTable({
  title,
  needsHeader,
  edges,
  more,
  testId,
}: {
  title: string;
  /** The header of the column saying what the waiting job waits for: `to complete (afterok)`. */
  needsHeader: string;
  edges: DependencyEdge[];
  /** Jobs on this side the answer does not list (the service lists the first 200). */
  more: number;
  testId: string;
}) {
  const titleId = useId();
  return (
    <Stack gap={4} data-testid={testId}>
      <Title order={4} size="h5" id={titleId}>
        {title}
      </Title>
      <Table.ScrollContainer minWidth={480}>
        <Table aria-labelledby={titleId} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Job</Table.Th>
              <Table.Th>{needsHeader}</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Dependency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {edges.map((edge) => (
              <Table.Tr key={edge.job_id} data-testid="dependency-edge" data-job-id={edge.job_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/jobs/${encodeURIComponent(edge.job_id)}`}>
                    {edge.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {DEPENDENCY_TYPE_WORDS[edge.type]} ({edge.type})
                </Table.Td>
                <Table.Td>
                  <StateBadge state={edge.state} size="sm" />
                </Table.Td>
                <Table.Td
                  data-testid="dependency-status"
                  c={edge.status === 'unmeetable' ? 'var(--mantine-color-error)' : undefined}
                >
                  {STATUS_WORDS[edge.status]}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more > 0 && (
        <Text size="sm" data-testid="dependents-more">
          and {more.toLocaleString('en')} more
        </Text>
      )}
    </Stack>
  );
}

/**
 * The job's dependencies (extension): the jobs it waits for and what each must do, and the jobs
 * that wait for it; each with its state and whether the dependency is met, still waiting, or can
 * no longer be met. Only for a job that has any; nothing from a service without dependencies.
 */
export function DependenciesSection({ job }: { job: JobRecord }) {
  const answer = useJobDependencies(job);
  if (!answer || !hasDependencies(answer)) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="dependencies-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="dependencies-title">
          Dependencies
        </Title>
        {answer.depends_on.length > 0 && (
          <EdgeTable
            title="Waits for"
            needsHeader="This job waits for it"
            edges={answer.depends_on}
            more={0}
            testId="waits-for"
          />
        )}
        {answer.dependents_total > 0 && (
          <EdgeTable
            title="Waited on by"
            needsHeader="It waits for this job"
            edges={answer.dependents}
            more={answer.dependents_total - answer.dependents.length}
            testId="waited-on-by"
          />
        )}
      </Stack>
    </Paper>
  );
}
