import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ArrayAnswer } from '../../api/arrays';

/**
 * "Child 3 of array fan-out", for a child, its parent linked. A child is named
 * `<parent name>:<index>`, so the parent's name needs no request of its own (its id, should a
 * name ever read otherwise).
 */
export function ArrayPlace({ name, array }: { name: string; array: ArrayAnswer }) {
  if (array.parent_id === null || array.index === null) return null;
  const suffix = `:${array.index}`;
  const parentName = name.endsWith(suffix) ? name.slice(0, -suffix.length) : array.parent_id;
  return (
    <Text size="sm" data-testid="array-place">
      Child {array.index} of array{' '}
      {/* Underlined: a link inside a sentence must not be told apart by colour alone. */}
      <Anchor
        component={Link}
        to={`/jobs/${encodeURIComponent(array.parent_id)}`}
        underline="always"
      >
        {parentName}
      </Anchor>
    </Text>
  );
}
