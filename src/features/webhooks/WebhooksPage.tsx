import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useCapabilities } from '../../api/capabilities';
import { useCan } from '../../api/permissions';
import { webhookListQuery } from '../../api/webhooks';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleGate } from '../../components/RoleGate';
import { WebhookCard } from './WebhookCard';
import { WebhookForm } from './WebhookForm';

function WebhookList() {
  const webhooks = useQuery(webhookListQuery);
  const [adding, { open, close }] = useDisclosure();
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Each job state change a webhook names is POSTed to its URL, signed, and tried again until
          the receiver answers 2xx.
        </Text>
        <Button onClick={open}>Add a webhook</Button>
      </Group>
      <WebhookForm opened={adding} onClose={close} />
      {webhooks.isPending ? (
        <Loader aria-label="Loading webhooks" />
      ) : webhooks.isError ? (
        <ErrorAlert error={webhooks.error} title="The webhooks could not be read" />
      ) : webhooks.data.length === 0 ? (
        <Text c="dimmed">No webhook yet: add one to be told when jobs fail.</Text>
      ) : (
        webhooks.data.map((webhook) => <WebhookCard key={webhook.id} webhook={webhook} />)
      )}
    </Stack>
  );
}

/** The project's webhooks: add, test, delete, and each one's delivery log. */
export default function WebhooksPage() {
  const capabilities = useCapabilities();
  // A webhook's URL may hold a token: the list, like every change, is an admin's.
  const permission = useCan('listWebhooks');
  return (
    <Stack maw={1400}>
      <Title order={2}>Webhooks</Title>
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : capabilities.data?.webhooks ? (
        <RoleGate permission={permission}>
          <WebhookList />
        </RoleGate>
      ) : (
        <Alert color="gray" title="This service offers no webhooks">
          It speaks the job API but has no webhooks to manage here.
        </Alert>
      )}
    </Stack>
  );
}
