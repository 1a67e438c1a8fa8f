import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { isFinalState, type JobRecord } from '../../../contract';
import { useCancelJob } from '../../api/mutations';
import { useCan } from '../../api/permissions';
import { PermittedButton } from '../../components/PermittedButton';
import { StateBadge } from '../../components/StateBadge';
import { pendingCancelsStore } from '../../lib/history';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';
import { stateAfterCancel } from './lifecycle';
import { stopWording, useStopGrace } from './stop-grace';

/** What cancelling an array's parent does to its children, before anyone asks. */
function ArrayCancelText({ childrenLeft }: { childrenLeft: number }) {
  const which =
    childrenLeft === 1
      ? 'Its 1 child that has not ended is'
      : `Its ${childrenLeft.toLocaleString('en')} children that have not ended are`;
  return (
    <Text size="sm" c="dimmed" data-testid="cancel-array">
      {which} cancelled with it: waiting ones at once, running ones stopped (SIGTERM, then SIGKILL
      after their grace period). It becomes cancelled once they all have ended.
    </Text>
  );
}

/**
 * Cancel Job, asked first: what the job becomes, and for an array's parent (`childrenLeft`, its
 * children that have not ended; undefined for any other job) what becomes of its children.
 */
export function CancelButton({ job, childrenLeft }: { job: JobRecord; childrenLeft?: number }) {
  const [opened, dialog] = useDisclosure();
  const pending = pendingCancelsStore.use()[job.id];
  const mutation = useCancelJob();
  const wording = stopWording(useStopGrace(job));
  const permission = useCan('cancelJob');
  const confirm = () =>
    mutation.mutate(job.id, {
      onSuccess: () => {
        dialog.close();
        notifications.show({
          title: 'Cancel requested',
          message: `${job.name}: the service accepted the request.`,
        });
      },
    });
  // A parent goes through cancelling whatever its state, until its children have ended.
  const parent = childrenLeft !== undefined;
  const next = parent && !isFinalState(job.state) ? 'cancelling' : stateAfterCancel(job.state);
  // A cancelling job gets nothing more from another request: no button that suggests it would.
  if (isFinalState(job.state) || !next || job.state === 'cancelling') return null;
  return (
    <>
      <PermittedButton
        permission={permission}
        color="red.9"
        variant={pending ? 'outline' : 'filled'}
        onClick={dialog.open}
      >
        {pending ? 'Cancel again' : 'Cancel job'}
      </PermittedButton>
      <Modal opened={opened} onClose={dialog.close} title="Cancel this job?">
        <Stack>
          <Group gap="xs">
            <Text>Current state:</Text>
            <StateBadge state={job.state} />
            <Text>→ will become:</Text>
            <StateBadge state={next} />
          </Group>
          {parent && <ArrayCancelText childrenLeft={childrenLeft} />}
          {!parent && next === 'cancelling' && (
            <Text size="sm" c="dimmed" data-testid="cancel-stop-wording">
              {wording.dialog}
            </Text>
          )}
          {mutation.isError && (
            <Alert color="red" title="The service refused to cancel" role="alert">
              {mutation.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={dialog.close}>
              Keep running
            </Button>
            <Button color="red.9" loading={mutation.isPending} onClick={confirm}>
              Cancel job
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

export interface CancellationNotice {
  color: string;
  title: string;
  body: ReactNode;
  /** Ticking while pending: announced politely (status), not as an alarm. */
  role: 'alert' | 'status';
}

/**
 * "Cancellation pending — requested 0:37 ago", until the job ends; then how it ended. Null for a
 * job this browser did not ask to cancel.
 */
export function useCancellationNotice(job: JobRecord): CancellationNotice | null {
  const requestedAt = pendingCancelsStore.use()[job.id];
  const final = isFinalState(job.state);
  const now = useNow(Boolean(requestedAt) && !final);
  const wording = stopWording(useStopGrace(job));
  if (!requestedAt) return null;
  if (job.state === 'cancelled')
    return {
      color: 'gray',
      title: 'Cancelled',
      body: 'The cancellation you requested is done.',
      role: 'alert',
    };
  if (final)
    return {
      color: 'yellow',
      title: `Ended as ${job.state} before the cancel took effect`,
      body: `The job reached ${job.state} while the cancellation was pending.`,
      role: 'alert',
    };
  return {
    color: 'orange',
    title: 'Cancellation pending',
    body: (
      <>
        Requested <strong>{formatDuration(now - Date.parse(requestedAt))}</strong> ago;{' '}
        {wording.pending}
      </>
    ),
    role: 'status',
  };
}
