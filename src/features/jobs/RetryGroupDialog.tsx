import { Button, Modal, Stack, Text } from '@mantine/core';
import type { BulkFilter, FailureGroup } from '../../../contract';
import { useBulkActionRun } from '../../api/bulk-actions';
import { DialogFooter } from '../../components/DialogFooter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BulkActionProgress } from './BulkActionProgress';
import { jobs } from './bulk-text';
import { causeText } from './failure-group-text';

/**
 * Submits every job of a failure group again, in the service (a bulk resubmit of the group's
 * filter), once asked to: it says how many and that each one's secrets stay in the service.
 */
export function RetryGroupDialog({
  group,
  onClose,
}: {
  /** The group to retry; null while the dialog is closed. */
  group: FailureGroup | null;
  onClose: () => void;
}) {
  const { start, action } = useBulkActionRun('resubmit');
  const close = () => {
    start.reset();
    onClose();
  };
  return (
    <Modal
      opened={group !== null}
      // Closed while the start is on its way, the action would run unseen and could be begun twice.
      onClose={start.isPending ? () => {} : close}
      title={start.data ? 'Submitting the jobs again' : 'Retry every job of this group?'}
      size="lg"
    >
      {action.data ? (
        <BulkActionProgress action={action.data} onClose={close} />
      ) : (
        group && (
          <Stack>
            <Text>
              {jobs(group.count)} will be submitted again as new jobs: {causeText(group)}.
            </Text>
            <Text size="sm" c="dimmed">
              Each is submitted with its own command, environment and secrets; the secrets are kept
              in the service and never pass through this browser. A job that is no longer ended is
              skipped.
            </Text>
            {start.isError && <ErrorAlert error={start.error} title="The retry could not begin" />}
            <DialogFooter>
              <Button variant="default" onClick={close}>
                Keep them
              </Button>
              <Button
                loading={start.isPending}
                onClick={() => start.mutate(group.filter as BulkFilter)}
              >
                Retry {jobs(group.count)}
              </Button>
            </DialogFooter>
          </Stack>
        )
      )}
    </Modal>
  );
}
