import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import type { QueueSummary } from '../../../contract';
import { useCan } from '../../api/permissions';
import { usePauseQueue, useQueueMaxRunning, useResumeQueue } from '../../api/queues';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PauseControl } from '../../components/PauseControl';
import { PermittedButton } from '../../components/PermittedButton';
import { formatDuration } from '../../lib/time';
import { useNow } from '../../lib/use-now';

/** Why it is paused, and who changed the queue last: what the next person on call asks first. */
export function QueueChangeNote({ summary }: { summary: QueueSummary }) {
  const now = useNow(Boolean(summary.changed));
  return (
    <>
      {summary.paused && summary.paused_reason && (
        <Text size="sm" data-testid="queue-paused-reason">
          Paused: {summary.paused_reason}
        </Text>
      )}
      {summary.changed && (
        <Text size="xs" c="dimmed" data-testid="queue-changed">
          Changed {formatDuration(Math.max(0, now - Date.parse(summary.changed.at)))} ago by{' '}
          {summary.changed.by}
        </Text>
      )}
    </>
  );
}

function QueuePause({ summary }: { summary: QueueSummary }) {
  const pause = usePauseQueue();
  const resume = useResumeQueue();
  const permission = useCan('pauseQueue');
  return (
    <PauseControl
      permission={permission}
      name={summary.queue}
      paused={summary.paused}
      pause={pause}
      resume={resume}
      words={{
        noun: 'queue',
        pauseEffect:
          'It keeps accepting jobs and starts none until it is resumed, on every instance. Running jobs are left alone.',
        paused: `${summary.queue} starts no job until it is resumed.`,
        resumed: `${summary.queue} starts its waiting jobs again.`,
        keep: 'Keep it running',
      }}
    />
  );
}

/** How many of the queue's jobs run at once: up to its ceiling, or back to the configured value. */
function MaxRunningButton({ summary }: { summary: QueueSummary }) {
  const [opened, dialog] = useDisclosure();
  const [value, setValue] = useState<string | number>(summary.max_running);
  const mutation = useQueueMaxRunning();
  const permission = useCan('setQueueMaxRunning');
  const ceiling = summary.max_running_ceiling ?? summary.max_running;
  const configured = summary.configured_max_running ?? summary.max_running;
  const open = () => {
    setValue(summary.max_running);
    dialog.open();
  };
  const close = () => {
    dialog.close();
    mutation.reset();
  };
  const save = (maxRunning: number | null) =>
    mutation.mutate(
      { name: summary.queue, maxRunning },
      {
        onSuccess: (changed) => {
          close();
          notifications.show({
            title: 'Max running changed',
            message: `${changed.queue} runs up to ${changed.max_running} jobs at once.`,
          });
        },
      },
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(typeof value === 'number' ? value : Number(value));
  };
  return (
    <>
      <PermittedButton
        permission={permission}
        variant="default"
        onClick={open}
        aria-label={`Change max running of ${summary.queue}`}
      >
        Max running
      </PermittedButton>
      <Modal opened={opened} onClose={close} title={`Max running of ${summary.queue}`}>
        <form onSubmit={submit}>
          <Stack>
            <NumberInput
              label="Jobs running at once"
              description={`The configuration says ${configured}; at most ${ceiling}. A lower value stops no running job.`}
              value={value}
              onChange={setValue}
              min={1}
              max={ceiling}
              allowDecimal={false}
              allowNegative={false}
              data-autofocus
            />
            {mutation.isError && (
              <ErrorAlert error={mutation.error} title="The service refused the change" />
            )}
            <Group justify="flex-end">
              {summary.max_running !== configured && (
                <Button variant="subtle" onClick={() => save(null)}>
                  Back to configured ({configured})
                </Button>
              )}
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={mutation.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** An operator's controls of a queue, on a service that offers them. */
export function QueueControls({ summary }: { summary: QueueSummary }) {
  return (
    <Group gap="xs" justify="flex-end" data-testid="queue-controls">
      <MaxRunningButton summary={summary} />
      <QueuePause summary={summary} />
    </Group>
  );
}
