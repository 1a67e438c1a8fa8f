import { Anchor, Badge, Box, Group, Text } from '@mantine/core';
import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ArrayChild } from '../../api/arrays';
import { StateBadge, stateColor } from '../../components/StateBadge';
import { movedFocus, toggled, withRange } from './child-grid';

/** How many columns the grid's CSS laid out: what ↑ and ↓ move by. */
const columnsOf = (grid: HTMLElement | null) =>
  Math.max(1, grid ? getComputedStyle(grid).gridTemplateColumns.split(' ').length : 1);

/**
 * An array's children loaded so far as a grid of cells, one per child, coloured by its state
 * (and named by it, for who does not see colour), in `order`. A listbox: click or Space switches
 * a child, Shift with a click or an arrow selects the range from the last child switched, the
 * arrows, Home and End move, Enter opens the child's page. The child in focus is told below.
 */
export function ChildrenGrid({
  order,
  selected,
  onSelectionChange,
  busy,
}: {
  order: ArrayChild[];
  selected: ReadonlySet<string>;
  onSelectionChange: (selected: Set<string>) => void;
  busy: boolean;
}) {
  const grid = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const [focusAt, setFocusAt] = useState(0);
  const [anchor, setAnchor] = useState(0);
  const at = Math.min(focusAt, Math.max(order.length - 1, 0));
  const focused = order[at];

  const focusCell = (position: number) => {
    setFocusAt(position);
    grid.current?.querySelector<HTMLElement>(`[data-position="${position}"]`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = movedFocus(event.key, at, columnsOf(grid.current), order.length);
    if (target !== null) {
      event.preventDefault();
      focusCell(target);
      if (event.shiftKey) onSelectionChange(withRange(selected, order, anchor, target));
      return;
    }
    if (event.key === ' ' && focused) {
      event.preventDefault();
      if (event.shiftKey) onSelectionChange(withRange(selected, order, anchor, at));
      else {
        onSelectionChange(toggled(selected, focused.id));
        setAnchor(at);
      }
    }
    if (event.key === 'Enter' && focused) void navigate(`/jobs/${encodeURIComponent(focused.id)}`);
  };
  const onCellClick = (event: MouseEvent, position: number, child: ArrayChild) => {
    setFocusAt(position);
    if (event.shiftKey) onSelectionChange(withRange(selected, order, anchor, position));
    else {
      onSelectionChange(toggled(selected, child.id));
      setAnchor(position);
    }
  };

  return (
    <Box>
      <Box
        ref={grid}
        role="listbox"
        aria-label="Children by index"
        aria-multiselectable
        aria-busy={busy}
        onKeyDown={onKeyDown}
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(3.25rem, 1fr))',
          gap: 4,
        }}
      >
        {order.map((child, position) => {
          const isSelected = selected.has(child.id);
          return (
            <Box
              key={child.id}
              role="option"
              aria-selected={isSelected}
              aria-label={`${child.index}: ${child.state}`}
              tabIndex={position === at ? 0 : -1}
              data-position={position}
              data-child-index={child.index}
              data-state={child.state}
              onClick={(event) => onCellClick(event, position, child)}
              onFocus={() => setFocusAt(position)}
              style={{
                cursor: 'pointer',
                borderRadius: 4,
                outline: isSelected ? '3px solid var(--mantine-color-text)' : undefined,
                outlineOffset: 1,
              }}
            >
              <Badge
                color={stateColor(child.state)}
                variant="filled"
                radius="sm"
                fullWidth
                size="lg"
                styles={{ label: { fontFamily: 'monospace' } }}
              >
                {isSelected ? `✓${child.index}` : child.index}
              </Badge>
            </Box>
          );
        })}
      </Box>
      {focused && (
        <Group gap="sm" mt="xs" data-testid="focused-child" wrap="nowrap">
          <Anchor component={Link} to={`/jobs/${encodeURIComponent(focused.id)}`}>
            {focused.name}
          </Anchor>
          <StateBadge state={focused.state} size="sm" />
          {focused.exit_code !== null && (
            <Text size="sm" ff="monospace">
              exit {focused.exit_code}
            </Text>
          )}
          <Text size="xs" c="dimmed" lineClamp={1}>
            {focused.system_note}
          </Text>
        </Group>
      )}
    </Box>
  );
}
