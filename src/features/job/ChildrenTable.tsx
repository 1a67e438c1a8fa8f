import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ArrayChild } from '../../api/arrays';
import {
  SelectAllCheckbox,
  SelectRowCheckbox,
  type Selection,
} from '../../components/SelectionControls';
import { StateBadge } from '../../components/StateBadge';
import { durationMs, formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

function ChildRow({
  child,
  now,
  selection,
}: {
  child: ArrayChild;
  now: number;
  selection: Selection;
}) {
  const duration = durationMs(child, now);
  return (
    <Table.Tr
      data-selected={selection.selected.has(child.id) || undefined}
      data-child-index={child.index}
    >
      <Table.Td>
        <SelectRowCheckbox id={child.id} name={child.name} {...selection} />
      </Table.Td>
      <Table.Td ff="monospace">{child.index}</Table.Td>
      <Table.Td>
        <Anchor component={Link} to={`/jobs/${encodeURIComponent(child.id)}`}>
          {child.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <StateBadge state={child.state} size="sm" />
      </Table.Td>
      <Table.Td ff="monospace" data-testid="child-exit-code">
        {child.exit_code ?? '—'}
      </Table.Td>
      <Table.Td ff="monospace" data-testid="child-duration">
        {duration === null ? '—' : formatDuration(duration)}
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed" lineClamp={2}>
          {child.system_note}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** An array's children loaded so far, by index, each selectable, its name a link to its page. */
export function ChildrenTable({
  items,
  selected,
  onSelectionChange,
  busy,
}: {
  items: ArrayChild[];
  selected: ReadonlySet<string>;
  onSelectionChange: (selected: Set<string>) => void;
  /**
   * A new filter's children are being read: these are the last filter's (not dimmed: that would
   * take their text below a readable contrast).
   */
  busy: boolean;
}) {
  // One clock for the table: every second while a duration ticks.
  const now = useNow(items.some((child) => child.started_at && !child.finished_at));
  return (
    <Table.ScrollContainer minWidth={640}>
      {/* Fixed columns: a filter or a poll changing the rows does not move them. */}
      <Table
        layout="fixed"
        striped
        highlightOnHover
        verticalSpacing={4}
        aria-label="Children"
        aria-busy={busy}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <SelectAllCheckbox
                label="Select every child shown"
                ids={items.map((child) => child.id)}
                selected={selected}
                onChange={onSelectionChange}
              />
            </Table.Th>
            <Table.Th w={64}>Index</Table.Th>
            <Table.Th w="25%">Name</Table.Th>
            <Table.Th w={130}>State</Table.Th>
            <Table.Th w={90}>Exit code</Table.Th>
            <Table.Th w={90}>Duration</Table.Th>
            <Table.Th>Note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((child) => (
            <ChildRow
              key={child.id}
              child={child}
              now={now}
              selection={{ selected, onChange: onSelectionChange }}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
