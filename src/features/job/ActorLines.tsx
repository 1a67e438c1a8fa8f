import { Group, Text } from '@mantine/core';
import type { JobExecution } from '../../../contract';
import { TimeText } from '../../components/TimeText';
import { useNow } from '../../lib/use-now';

/**
 * Who submitted the job and who asked for its cancel, as the service recorded them (`key:…`,
 * `user:…`, `schedule:…`); nothing for a job from before the service kept them.
 */
export function ActorLines({ execution }: { execution: JobExecution | null | undefined }) {
  // A minute is the finest step "3 minutes ago" shows.
  const now = useNow(Boolean(execution?.cancel_requested_at), 30_000);
  if (!execution?.submitted_by && !execution?.cancel_requested_by) return null;
  return (
    <Group gap="lg" data-testid="job-actors">
      {execution.submitted_by && (
        <Text size="sm" data-testid="submitted-by">
          Submitted by{' '}
          <Text span ff="monospace">
            {execution.submitted_by}
          </Text>
        </Text>
      )}
      {execution.cancel_requested_by && (
        <Text size="sm" data-testid="cancel-requested-by">
          Cancel requested by{' '}
          <Text span ff="monospace">
            {execution.cancel_requested_by}
          </Text>
          {execution.cancel_requested_at && (
            <>
              {' '}
              <TimeText iso={execution.cancel_requested_at} relativeTo={now} />
            </>
          )}
        </Text>
      )}
    </Group>
  );
}
