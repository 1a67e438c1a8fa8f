import { Group, List, Text } from '@mantine/core';
import type { CancelTarget } from '../lib/bulk-cancel-plan';
import { shortId } from '../lib/short-id';
import { StateBadge } from './StateBadge';

/** Jobs by name and short id, each with its state: what a cancel of several is about to reach. */
export function JobNameList({ jobs }: { jobs: readonly CancelTarget[] }) {
  return (
    <List size="sm" spacing={2}>
      {jobs.map((job) => (
        <List.Item key={job.id}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{job.name}</Text>
            <Text span size="xs" c="dimmed" ff="monospace">
              {shortId(job.id)}
            </Text>
            <StateBadge state={job.state} size="sm" />
          </Group>
        </List.Item>
      ))}
    </List>
  );
}
