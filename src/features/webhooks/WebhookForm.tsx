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
} from '../../../contract';
import { queueNamesQuery } from '../../api/queries';
import { useCreateWebhook } from '../../api/webhooks';
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

/** Adds a webhook: where, for which states, queues and labels; then shows its secret once. */
export function WebhookForm({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateWebhook();
  const queues = useQuery({ ...queueNamesQuery, enabled: opened });
  const [url, setUrl] = useState('');
  const [states, setStates] = useState<string[]>([...UNSUCCESSFUL_STATES]);
  const [queueNames, setQueueNames] = useState<string[]>([]);
  const [labels, setLabels] = useState<string[]>([]);
  const [description, setDescription] = useState('');
  const close = () => {
    create.reset();
    setUrl('');
    setDescription('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title="Add a webhook" size="lg">
      {create.data ? (
        <SecretOnce webhook={create.data} onDone={close} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate({
              url: url.trim(),
              states: states as JobState[],
              ...(queueNames.length > 0 && { queues: queueNames }),
              ...(labels.length > 0 && { labels }),
              ...(description.trim() && { description: description.trim() }),
            });
          }}
        >
          <Stack>
            <TextInput
              label="URL"
              description="Where each event is POSTed, as JSON. Redirects are not followed."
              placeholder="https://hooks.example.com/jobdeck"
              value={url}
              onChange={(event) => setUrl(event.currentTarget.value)}
              required
              data-autofocus
            />
            <MultiSelect
              label="States"
              description="A job entering one of these fires it"
              data={[...JOB_STATES]}
              value={states}
              onChange={setStates}
              required
            />
            <MultiSelect
              label="Queues"
              description="Only these queues' jobs; none chosen: every queue"
              data={queues.data ?? []}
              value={queueNames}
              onChange={setQueueNames}
              searchable
              clearable
            />
            <TagsInput
              label="Labels"
              description="Only jobs with every one: key=value, or key for any value"
              placeholder="team=data"
              value={labels}
              onChange={setLabels}
            />
            <TextInput
              label="Description"
              placeholder="On-call channel"
              value={description}
              onChange={(event) => setDescription(event.currentTarget.value)}
            />
            {create.isError && (
              <ErrorAlert error={create.error} title="The webhook was not added" />
            )}
            <Text size="xs" c="dimmed">
              Payloads carry the job as the jobs table shows it: never its command or environment.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} disabled={states.length === 0}>
                Add webhook
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
