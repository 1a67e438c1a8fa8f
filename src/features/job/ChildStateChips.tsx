import { Chip, Group } from '@mantine/core';
import { childCounts, type JobState } from '../../../contract';
import { childCountOf, type ArrayAnswer } from '../../api/arrays';

/**
 * The children counted by state, each count a toggle of the filter (several may be on); "All"
 * clears it. The parent's note's own count (`childCounts`), in its order: states with no child
 * are left out unless the filter holds them (to be switched off).
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
  const shown = childCounts(array.counts, states);
  return (
    <Group gap="xs" role="group" aria-label="Show the children in a state">
      <Chip
        checked={states.length === 0}
        onChange={() => onChange([])}
        size="sm"
        wrapperProps={{ 'data-testid': 'child-count-all' }}
      >
        All {childCountOf(array).toLocaleString('en')}
      </Chip>
      {shown.map(([state, count]) => (
        <Chip
          key={state}
          checked={states.includes(state)}
          onChange={(on) =>
            onChange(on ? [...states, state] : states.filter((other) => other !== state))
          }
          size="sm"
          wrapperProps={{ 'data-testid': `child-count-${state}` }}
        >
          {count.toLocaleString('en')} {state}
        </Chip>
      ))}
    </Group>
  );
}
