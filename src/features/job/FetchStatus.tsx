import { Text } from '@mantine/core';
import { useNow } from '../../lib/use-now';

/** How fresh the page is, and why not when a refresh failed or the browser is offline. */
export function FetchStatus({
  updatedAt,
  error,
  offline,
}: {
  updatedAt: number;
  error: unknown;
  offline: boolean;
}) {
  const now = useNow(true);
  // The clock of the tick can trail the answer's by a moment: never "-1 s ago".
  const ago = Math.max(0, Math.round((now - updatedAt) / 1000));
  let problem = '';
  // react-query pauses (does not fail) queries while the browser is offline: say so.
  if (offline) problem = ' — offline: the page refreshes again when the network is back.';
  else if (error) problem = ` — refresh failed: ${(error as Error).message} Retrying.`;
  return (
    <Text size="xs" c={problem ? 'orange' : 'dimmed'} data-testid="fetch-status" role="status">
      Last updated {ago} s ago{problem}
    </Text>
  );
}
