import { Group, List, Text } from '@mantine/core';
import type { CancelTarget } from '../lib/bulk-cancel-plan';
import { StateBadge } from './StateBadge';

/** Jobs by name, each with its state: what a cancel of several is about to reach. */
export function JobNameList({ jobs }: { jobs: readonly CancelTarget[] }) {
  return (
    <List size="sm" spacing={2}>
      {jobs.map((job) => (
        <List.Item key={job.id}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{job.name}</Text>
            <StateBadge state={job.state} size="sm" />
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
