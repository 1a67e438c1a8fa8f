import { Code, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DefinitionSummary } from '../../../contract';
import { definitionSizingQuery } from '../../api/definitions';
import { formatSeconds, strategyText } from '../../lib/retry-text';
import { formatBytes } from '../../lib/time';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/**
 * How well its recent runs fit what it asks for, beside its limits: "the last 50 runs peaked at
 * 310 MiB p95 of 1 GiB asked: 0.3 efficiency". Nothing while loading, or from a service without
 * the hint.
 */
function SizingFact({ definition }: { definition: string }) {
  const sizing = useQuery(definitionSizingQuery(definition));
  if (!sizing.data) return null;
  return (
    <div data-testid="definition-sizing">
      <Fact label="Right size (recent runs)">{sizing.data.summary}</Fact>
    </div>
  );
}

/**
 * What the definition named in the form runs unless the submission says otherwise (definitions
 * extension): its image, limits, declared parameters with their defaults and retry strategy.
 */
export function DefinitionDetails({ definition }: { definition: DefinitionSummary }) {
  const parameters = Object.entries(definition.parameters);
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-label={`Definition ${definition.job_definition}`}
      data-testid="definition-details"
    >
      <Stack gap="xs">
        <Fact label="Image">
          <Code>{definition.image}</Code>
        </Fact>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <Fact label="CPUs">{definition.cpus ?? 'service default'}</Fact>
          <Fact label="Memory">
            {definition.memory_bytes === null
              ? 'service default'
              : formatBytes(definition.memory_bytes)}
          </Fact>
          <Fact label="Timeout">{formatSeconds(definition.timeout_seconds)}</Fact>
          <Fact label="Stop grace">{formatSeconds(definition.stop_grace_seconds)}</Fact>
        </SimpleGrid>
        <SizingFact definition={definition.job_definition} />
        <Fact label="Retries">
          {definition.retry ? strategyText(definition.retry) : '1 attempt (no retries)'}
        </Fact>
        {parameters.length === 0 ? (
          <Fact label="Parameters">none declared</Fact>
        ) : (
          <Table withTableBorder={false} verticalSpacing={2} aria-label="Declared parameters">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Parameter</Table.Th>
                <Table.Th>Default</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parameters.map(([key, value]) => (
                <Table.Tr key={key}>
                  <Table.Td ff="monospace">{key}</Table.Td>
                  <Table.Td ff="monospace">{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
