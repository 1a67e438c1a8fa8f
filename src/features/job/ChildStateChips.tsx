import { Chip, Group } from '@mantine/core';
import { JOB_STATES, type JobState } from '../../../contract';
import type { ArrayAnswer } from '../../api/arrays';

/**
 * The children counted by state, each count a toggle of the filter (several may be on); "All"
 * clears it. States with no child are left out unless the filter holds them (to be switched off).
 */
export function ChildStateChips({
  array,
  states,
  onChange,
}: {
  array: ArrayAnswer & { size: number };
  states: readonly JobState[];
  onChange: (states: JobState[]) => void;
}) {
  const shown = JOB_STATES.filter(
    (state) => (array.counts[state] ?? 0) > 0 || states.includes(state),
  );
  return (
    <Group gap="xs" role="group" aria-label="Show the children in a state">
      <Chip
        checked={states.length === 0}
        onChange={() => onChange([])}
        size="sm"
        wrapperProps={{ 'data-testid': 'child-count-all' }}
      >
        All {array.size.toLocaleString('en')}
      </Chip>
      {shown.map((state) => (
        <Chip
          key={state}
          checked={states.includes(state)}
          onChange={(on) =>
            onChange(on ? [...states, state] : states.filter((other) => other !== state))
          }
          size="sm"
          wrapperProps={{ 'data-testid': `child-count-${state}` }}
        >
          {(array.counts[state] ?? 0).toLocaleString('en')} {state}
        </Chip>
      ))}
    </Group>
  );
}
