import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  MultiSelect,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  JOB_STATES,
  UNSUCCESSFUL_STATES,
  type CreatedWebhook,
  type JobState,
  type Webhook,
} from '../../../contract';
import { queueNamesQuery } from '../../api/queries';
import { useCreateWebhook, useUpdateWebhook } from '../../api/webhooks';
import { CopyTextButton } from '../../components/CopyTextButton';
import { ErrorAlert } from '../../components/ErrorAlert';

/** The secret, this once: the service keeps it sealed and never shows it again. */
function SecretOnce({ webhook, onDone }: { webhook: CreatedWebhook; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy the signing secret now">
        It is shown this once. Receivers verify each request&apos;s <Code>webhook-signature</Code>{' '}
        header with it (Standard Webhooks).
      </Alert>
      <Code block data-testid="webhook-secret">
        {webhook.secret}
      </Code>
      <Group justify="space-between">
        <CopyTextButton value={webhook.secret} label="Copy secret" size="sm" />
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** The form's fields, from a webhook being edited or the defaults of a new one. */
function initialFields(webhook?: Webhook) {
  return {
    url: webhook?.url ?? '',
    states: webhook ? [...webhook.states] : [...UNSUCCESSFUL_STATES],
    queues: webhook?.queues ?? [],
    labels: webhook?.labels ?? [],
    description: webhook?.description ?? '',
  };
}

/**
 * Adds a webhook (then shows its secret once), or edits one (`webhook`): where it goes, for which
 * states, queues and labels.
 */
export function WebhookForm({
  opened,
  onClose,
  webhook,
}: {
  opened: boolean;
  onClose: () => void;
  webhook?: Webhook;
}) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const saving = webhook ? update : create;
  const queues = useQuery({ ...queueNamesQuery, enabled: opened });
  const [fields, setFields] = useState(() => initialFields(webhook));
  const set = (changes: Partial<typeof fields>) => setFields((shown) => ({ ...shown, ...changes }));
  const close = () => {
    create.reset();
    update.reset();
    setFields(initialFields(webhook));
    onClose();
  };
  const request = () => ({
    url: fields.url.trim(),
    states: fields.states as JobState[],
    ...(webhook
      ? { queues: fields.queues, labels: fields.labels, description: fields.description.trim() }
      : {
          ...(fields.queues.length > 0 && { queues: fields.queues }),
          ...(fields.labels.length > 0 && { labels: fields.labels }),
          ...(fields.description.trim() && { description: fields.description.trim() }),
        }),
  });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={webhook ? 'Edit webhook' : 'Add a webhook'}
      size="lg"
      // The secret shown is gone for good once closed: only Done closes it.
      closeOnEscape={!create.data}
      closeOnClickOutside={!create.data}
      withCloseButton={!create.data}
    >
      {create.data ? (
        <SecretOnce webhook={create.data} onDone={close} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (webhook)
              update.mutate({ id: webhook.id, changes: request() }, { onSuccess: close });
            else create.mutate(request());
          }}
        >
          <Stack>
            <TextInput
              label="URL"
              description="Where each event is POSTed, as JSON. Redirects are not followed."
              placeholder="https://hooks.example.com/jobdeck"
              value={fields.url}
              onChange={(event) => set({ url: event.currentTarget.value })}
              required
              data-autofocus
            />
            <MultiSelect
              label="States"
              description="A job entering one of these fires it"
              data={[...JOB_STATES]}
              value={fields.states}
              onChange={(states) => set({ states })}
              required
            />
            <MultiSelect
              label="Queues"
              description="Only these queues' jobs; none chosen: every queue"
              data={queues.data ?? []}
              value={fields.queues}
              onChange={(chosen) => set({ queues: chosen })}
              searchable
              clearable
            />
            <TagsInput
              label="Labels"
              description="Only jobs with every one: key=value, or key for any value"
              placeholder="team=data"
              value={fields.labels}
              onChange={(labels) => set({ labels })}
            />
            <TextInput
              label="Description"
              placeholder="On-call channel"
              value={fields.description}
              onChange={(event) => set({ description: event.currentTarget.value })}
            />
            {saving.isError && (
              <ErrorAlert
                error={saving.error}
                title={webhook ? 'The webhook was not changed' : 'The webhook was not added'}
              />
            )}
            <Text size="xs" c="dimmed">
              Payloads carry the job as the jobs table shows it: never its command or environment.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button
                type="submit"
                loading={saving.isPending}
                disabled={fields.states.length === 0}
              >
                {webhook ? 'Save changes' : 'Add webhook'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
