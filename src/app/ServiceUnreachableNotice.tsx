import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useServiceUnreachableSince } from '../api/reachability';
import { clockTime } from '../lib/clock-time';

const RETRY_MS = 5000;

/**
 * Above every page while the service does not answer: what is shown may be stale, since when,
 * and that the console keeps trying (it reads the page's data again every 5 s, so that a page
 * that polls nothing, like the submit form, also sees the service come back).
 */
export function ServiceUnreachableNotice() {
  const since = useServiceUnreachableSince();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => void queryClient.refetchQueries({ type: 'active' }), RETRY_MS);
    return () => clearInterval(timer);
  }, [since, queryClient]);
  if (since === null) return null;
  return (
    <Text
      role="alert"
      data-testid="service-unreachable"
      mb="md"
      px="md"
      py="xs"
      fw={500}
      bg="var(--mantine-color-yellow-light)"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    >
      Cannot reach the service since {clockTime(since)}; retrying. What the page shows may be out of
      date.
    </Text>
  );
}
