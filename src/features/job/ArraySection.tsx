import { Button, Group, Paper, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { JobState } from '../../../contract';
import {
  childCountOf,
  childrenNotEnded,
  isArrayParent,
  type ArrayAnswer,
  type ArrayChild,
  type JobArrayView,
} from '../../api/arrays';
import { CancelSelected } from '../../components/SelectionControls';
import { gridOrder } from './child-grid';
import { ChildrenGrid } from './ChildrenGrid';
import { ChildrenTable } from './ChildrenTable';
import { ChildStateChips } from './ChildStateChips';
import { resubmitPath, useCanResubmit } from './resubmit';

/** The chosen children's indexes, ascending: a new array of those alone (array.indexes). */
const indexesOf = (children: readonly ArrayChild[]) =>
  children.map((child) => child.index).sort((a, b) => a - b);

/** How many children the filter lets through: all of them without one. */
const childrenInFilter = (array: ArrayAnswer & { size: number }, states: readonly JobState[]) =>
  states.length === 0
    ? childCountOf(array)
    : states.reduce((sum, s) => sum + (array.counts[s] ?? 0), 0);

/**
 * An array's parent's children (extension; nothing for any other job): counted by state, each
 * count a filter (in the URL); a grid of cells coloured by state (or a table), by index or the
 * failures first, a page at a time; select some (ranges too) to cancel those that have not
 * ended, with the plan and then each one's answer, as the jobs table does. The parent's own
 * Cancel (in the header) cancels them all.
 */
export function ArraySection({
  parentId,
  view,
  states,
  onStatesChange,
}: {
  parentId: string;
  view: JobArrayView;
  states: readonly JobState[];
  onStatesChange: (states: JobState[]) => void;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [layout, setLayout] = useState<'grid' | 'table'>('grid');
  const [failuresFirst, setFailuresFirst] = useState(false);
  const canResubmit = useCanResubmit(parentId);
  const { array } = view;
  if (!isArrayParent(array)) return null;
  const chosen = array.items.filter((child) => selected.has(child.id));
  const inFilter = childrenInFilter(array, states);
  const left = childrenNotEnded(array);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="array-title">
      <Stack gap="sm">
        <Group gap="lg">
          <Title order={3} size="h4" id="array-title">
            Array
          </Title>
          <Text data-testid="array-progress">
            {childCountOf(array).toLocaleString('en')} children
            {left > 0 && `, ${left.toLocaleString('en')} not ended`}
          </Text>
        </Group>
        <ChildStateChips
          array={array}
          states={states}
          onChange={(next) => {
            setSelected(new Set());
            onStatesChange(next);
          }}
        />
        <Group gap="sm">
          <SegmentedControl
            size="xs"
            aria-label="Show the children as"
            value={layout}
            onChange={(value) => setLayout(value as 'grid' | 'table')}
            data={[
              { value: 'grid', label: 'Grid' },
              { value: 'table', label: 'Table' },
            ]}
          />
          {layout === 'grid' && (
            <Switch
              label="Failures first"
              checked={failuresFirst}
              onChange={(event) => setFailuresFirst(event.currentTarget.checked)}
            />
          )}
          <CancelSelected jobs={chosen} onDone={() => setSelected(new Set())} />
          {canResubmit && chosen.length > 0 && (
            <Button
              size="xs"
              variant="default"
              component={Link}
              to={resubmitPath(parentId, indexesOf(chosen))}
            >
              Submit {chosen.length === 1 ? 'this index' : 'these indexes'} again
            </Button>
          )}
        </Group>
        {array.items.length === 0 ? (
          <Text c="dimmed" data-testid="no-children">
            No child is {states.join(' or ')} now.
          </Text>
        ) : layout === 'grid' ? (
          <ChildrenGrid
            order={gridOrder(array.items, failuresFirst)}
            selected={selected}
            onSelectionChange={setSelected}
            busy={view.filtering}
          />
        ) : (
          <ChildrenTable
            items={array.items}
            selected={selected}
            onSelectionChange={setSelected}
            busy={view.filtering}
          />
        )}
        {/* The rows shown are the last filter's until the new one's are read: no count of them. */}
        <Group gap="sm" mih={36}>
          {view.filtering ? (
            <Text size="sm" c="dimmed" role="status">
              Reading the children in these states…
            </Text>
          ) : (
            <Text size="sm" c="dimmed" data-testid="children-shown">
              {array.items.length.toLocaleString('en')} of {inFilter.toLocaleString('en')} shown
            </Text>
          )}
          {view.hasMore && !view.filtering && (
            <Button variant="default" loading={view.loadingMore} onClick={view.loadMore}>
              Load more
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
