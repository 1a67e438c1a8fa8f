import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { PAUSE_REASON_MAX_LENGTH, type Schedule } from '../../../contract';
import { usePauseSchedule, useResumeSchedule } from '../../api/schedules';

/** Pause asks for an optional reason first: whoever finds it paused reads why. */
function PauseButton({ schedule }: { schedule: Schedule }) {
  const [opened, dialog] = useDisclosure();
  const [reason, setReason] = useState('');
  const mutation = usePauseSchedule();
  const close = () => {
    dialog.close();
    mutation.reset();
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate(
      { name: schedule.name, reason },
      {
        onSuccess: () => {
          close();
          setReason('');
          notifications.show({
            title: 'Schedule paused',
            message: `${schedule.name} fires no more until it is resumed.`,
          });
        },
      },
    );
  };
  return (
    <>
      <Button variant="default" onClick={dialog.open}>
        Pause
      </Button>
      <Modal opened={opened} onClose={close} title={`Pause ${schedule.name}?`}>
        <form onSubmit={confirm}>
          <Stack>
            <TextInput
              label="Reason (optional)"
              description="Shown beside the schedule while it is paused."
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={PAUSE_REASON_MAX_LENGTH}
              data-autofocus
            />
            {mutation.isError && (
              <Alert color="red" title="The service refused to pause it" role="alert">
                {mutation.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Keep it running
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Pause schedule
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** Resume needs no question: it only fires from the next firing on. */
function ResumeButton({ schedule }: { schedule: Schedule }) {
  const mutation = useResumeSchedule();
  const resume = () =>
    mutation.mutate(schedule.name, {
      onSuccess: () =>
        notifications.show({
          title: 'Schedule resumed',
          message: `${schedule.name} fires again from its next firing on.`,
        }),
    });
  return (
    <Stack gap="xs" align="flex-end">
      <Button onClick={resume} loading={mutation.isPending}>
        Resume
      </Button>
      {mutation.isError && (
        <Alert color="red" title="The service refused to resume it" role="alert">
          {mutation.error.message}
        </Alert>
      )}
    </Stack>
  );
}

export function PauseControl({ schedule }: { schedule: Schedule }) {
  return schedule.paused ? (
    <ResumeButton schedule={schedule} />
  ) : (
    <PauseButton schedule={schedule} />
  );
}
