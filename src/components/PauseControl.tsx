import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PAUSE_REASON_MAX_LENGTH } from '../../contract';
import type { Permission } from '../api/permissions';
import { ErrorAlert } from './ErrorAlert';
import { PermittedButton } from './PermittedButton';

/** What pausing and resuming a thing (a schedule, a queue) says, in its own words. */
export interface PauseWords {
  /** "schedule", "queue". */
  noun: string;
  /** What pausing does, said in the dialog when it is not plain. */
  pauseEffect?: string;
  /** The notice after a pause and after a resume. */
  paused: string;
  resumed: string;
  /** The dialog's button that keeps it as it is. */
  keep: string;
}

type Pause = UseMutationResult<unknown, Error, { name: string; reason?: string }>;
type Resume = UseMutationResult<unknown, Error, string>;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Pause asks for an optional reason first: whoever finds it paused reads why. */
function PauseButton({
  name,
  words,
  mutation,
  permission,
}: {
  name: string;
  words: PauseWords;
  mutation: Pause;
  permission: Permission;
}) {
  const [opened, dialog] = useDisclosure();
  const [reason, setReason] = useState('');
  const close = () => {
    dialog.close();
    mutation.reset();
  };
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate(
      { name, reason },
      {
        onSuccess: () => {
          close();
          setReason('');
          notifications.show({ title: `${capitalized(words.noun)} paused`, message: words.paused });
        },
      },
    );
  };
  return (
    <>
      <PermittedButton
        permission={permission}
        variant="default"
        onClick={dialog.open}
        aria-label={`Pause ${name}`}
      >
        Pause
      </PermittedButton>
      <Modal opened={opened} onClose={close} title={`Pause ${name}?`}>
        <form onSubmit={confirm}>
          <Stack>
            {words.pauseEffect && <Text size="sm">{words.pauseEffect}</Text>}
            <TextInput
              label="Reason (optional)"
              description={`Shown beside the ${words.noun} while it is paused.`}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={PAUSE_REASON_MAX_LENGTH}
              data-autofocus
            />
            {mutation.isError && (
              <ErrorAlert error={mutation.error} title="The service refused to pause it" />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {words.keep}
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Pause {words.noun}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** Resume needs no question. */
function ResumeButton({
  name,
  words,
  mutation,
  permission,
}: {
  name: string;
  words: PauseWords;
  mutation: Resume;
  permission: Permission;
}) {
  const resume = () =>
    mutation.mutate(name, {
      onSuccess: () =>
        notifications.show({ title: `${capitalized(words.noun)} resumed`, message: words.resumed }),
    });
  return (
    <Stack gap="xs" align="flex-end">
      <PermittedButton
        permission={permission}
        onClick={resume}
        loading={mutation.isPending}
        aria-label={`Resume ${name}`}
      >
        Resume
      </PermittedButton>
      {mutation.isError && (
        <ErrorAlert error={mutation.error} title="The service refused to resume it" />
      )}
    </Stack>
  );
}

/**
 * Pause (with a reason) or Resume, whichever applies now; `permission` is the role's for both
 * (they need the same one).
 */
export function PauseControl({
  name,
  paused,
  words,
  pause,
  resume,
  permission,
}: {
  name: string;
  paused: boolean;
  words: PauseWords;
  pause: Pause;
  resume: Resume;
  permission: Permission;
}) {
  return paused ? (
    <ResumeButton name={name} words={words} mutation={resume} permission={permission} />
  ) : (
    <PauseButton name={name} words={words} mutation={pause} permission={permission} />
  );
}
