import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { Webhook } from '../../../contract';
import { useDeleteWebhook, useTestWebhook } from '../../api/webhooks';
import { ErrorAlert } from '../../components/ErrorAlert';
import { DeliveryLog } from './DeliveryLog';
import { WebhookForm } from './WebhookForm';

function Chips({ label, items, none }: { label: string; items: string[]; none: string }) {
  return (
    <Group gap={6}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {items.length === 0 ? (
        <Text size="sm">{none}</Text>
      ) : (
        items.map((item) => (
          <Badge key={item} variant="outline" tt="none">
            {item}
          </Badge>
        ))
      )}
    </Group>
  );
}

/** One webhook: what fires it, a test event, deletion, and its delivery log. */
export function WebhookCard({ webhook }: { webhook: Webhook }) {
  const test = useTestWebhook();
  const remove = useDeleteWebhook();
  const [confirming, setConfirming] = useState(false);
  const [editing, { open: edit, close: closeEdit }] = useDisclosure();
  return (
    <Card
      withBorder
      data-testid="webhook"
      aria-label={`Webhook ${webhook.url}`}
      component="section"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={3} size="h5" style={{ wordBreak: 'break-all' }}>
              {webhook.url}
            </Title>
            {webhook.description && (
              <Text size="sm" c="dimmed">
                {webhook.description}
              </Text>
            )}
          </Stack>
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={edit}>
              Edit…
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate(webhook.id)}
            >
              Send test event
            </Button>
            {confirming ? (
              <>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setConfirming(false)}
                  // The button that had focus is gone: focus goes to the safe choice.
                  autoFocus
                >
                  Keep it
                </Button>
                <Button
                  size="xs"
                  color="red"
                  loading={remove.isPending}
                  onClick={() => remove.mutate(webhook.id)}
                >
                  Delete webhook and its log
                </Button>
              </>
            ) : (
              <Button size="xs" variant="subtle" color="red" onClick={() => setConfirming(true)}>
                Delete…
              </Button>
            )}
          </Group>
        </Group>
        <Chips label="States" items={webhook.states} none="—" />
        <Chips label="Queues" items={webhook.queues} none="every queue" />
        <Chips label="Labels" items={webhook.labels} none="any job" />
        {test.isError && <ErrorAlert error={test.error} title="The test event was not sent" />}
        {remove.isError && <ErrorAlert error={remove.error} title="The webhook was not deleted" />}
        <DeliveryLog webhookId={webhook.id} />
        {editing && <WebhookForm opened onClose={closeEdit} webhook={webhook} />}
      </Stack>
    </Card>
  );
}
