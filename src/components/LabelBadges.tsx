import { Badge, Group } from '@mantine/core';
import type { Labels } from '../../contract';

/** A job's labels as `key=value` chips, in the order they were given; nothing when it has none. */
export function LabelBadges({ labels }: { labels: Labels | undefined }) {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return null;
  return (
    <Group gap={4} data-testid="job-labels">
      {entries.map(([key, value]) => (
        <Badge
          key={key}
          variant="light"
          color="gray"
          size="sm"
          tt="none"
          fw={500}
          data-testid="job-label"
        >
          {key}={value}
        </Badge>
      ))}
    </Group>
  );
}
