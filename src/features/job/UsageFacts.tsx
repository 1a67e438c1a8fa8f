import { Group, Text } from '@mantine/core';
import type { AttemptUsageAnswer } from '../../../contract';
import { formatBytes, formatSpan } from '../../lib/time';

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;

/**
 * What an attempt used against what it asked for (the usage extension): its peak memory of its
 * limit, its CPU time of its wall time × CPUs. A sampled peak says so: it may have missed a spike.
 */
export function UsageFacts({ usage }: { usage: AttemptUsageAnswer }) {
  const peak = usage.peak_memory_exact ? 'Peak memory' : 'Peak memory (sampled)';
  return (
    <Group gap="md" data-testid="usage-facts">
      <Text size="sm" span>
        <Text span size="sm" c="dimmed">
          {peak}
        </Text>{' '}
        <span data-testid="usage-memory">
          {formatBytes(usage.peak_memory_bytes)} of {formatBytes(usage.memory_limit_bytes)} (
          {percent(usage.memory_efficiency)})
        </span>
      </Text>
      <Text size="sm" span>
        <Text span size="sm" c="dimmed">
          CPU time
        </Text>{' '}
        <span data-testid="usage-cpu">
          {formatSpan(usage.cpu_ms)}
          {usage.cpu_efficiency !== null &&
            ` (${percent(usage.cpu_efficiency)} of ${usage.cpus} CPU)`}
        </span>
      </Text>
    </Group>
  );
}
