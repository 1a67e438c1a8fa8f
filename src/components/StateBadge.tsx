import { Badge } from '@mantine/core';
import type { JobState } from '../../contract';

const COLORS: Record<JobState, string> = {
  submitted: 'gray',
  pending: 'violet',
  runnable: 'indigo',
  starting: 'cyan',
  running: 'blue',
  cancelling: 'orange',
  cancelled: 'gray',
  timeout: 'yellow',
  completed: 'green',
  failed: 'red',
  error: 'red',
};

export function stateColor(state: JobState): string {
  return COLORS[state];
}

export function StateBadge({
  state,
  size = 'md',
}: {
  state: JobState | null;
  size?: 'sm' | 'md' | 'lg';
}) {
  if (!state)
    return (
      <Badge variant="default" size={size}>
        unknown
      </Badge>
    );
  return (
    <Badge
      color={COLORS[state]}
      size={size}
      variant="filled"
      data-testid="state-badge"
      data-state={state}
    >
      {state}
    </Badge>
  );
}
