import { Anchor, Badge, Loader, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { WebhookDelivery } from '../../../contract';
import { webhookDeliveriesQuery } from '../../api/webhooks';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TimeText } from '../../components/TimeText';
import { shortId } from '../../lib/short-id';
import { useNow } from '../../lib/use-now';

const STATE_COLORS: Record<WebhookDelivery['state'], string> = {
  pending: 'blue',
  delivered: 'green',
  failed: 'red',
};

function Outcome({ delivery, now }: { delivery: WebhookDelivery; now: number }) {
  if (delivery.error === null) return <Text size="sm">—</Text>;
  return (
    <Text size="sm">
      {delivery.error}
      {delivery.next_attempt_at && (
        <>
          {' '}
          · next try <TimeText iso={delivery.next_attempt_at} relativeTo={now} />
        </>
      )}
    </Text>
  );
}

/** A webhook's latest deliveries: what was sent, how the receiver answered, what comes next. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const deliveries = useQuery(webhookDeliveriesQuery(webhookId));
  const now = useNow(true);
  if (deliveries.isPending) return <Loader size="sm" aria-label="Loading deliveries" />;
  if (deliveries.isError)
    return <ErrorAlert error={deliveries.error} title="The delivery log could not be read" />;
  if (deliveries.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Nothing sent yet. Send a test event to see how the receiver answers.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table data-cards striped fz="sm" aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Created</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Job</Table.Th>
            <Table.Th>Delivery</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Latency</Table.Th>
            <Table.Th>Last error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data.map((delivery) => (
            <Table.Tr key={delivery.id} data-testid="delivery">
              <Table.Td data-label="Created">
                <TimeText iso={delivery.created_at} relativeTo={now} />
              </Table.Td>
              <Table.Td data-label="Event">{delivery.event_type}</Table.Td>
              <Table.Td data-label="Job">
                {delivery.job_id ? (
                  <Anchor component={Link} to={`/jobs/${delivery.job_id}`} size="sm">
                    {shortId(delivery.job_id)}
                  </Anchor>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td data-label="Delivery">
                <Badge variant="filled" color={STATE_COLORS[delivery.state]}>
                  {delivery.state}
                </Badge>
              </Table.Td>
              <Table.Td data-label="Attempts">{delivery.attempts}</Table.Td>
              <Table.Td data-label="Status">{delivery.response_status ?? '—'}</Table.Td>
              <Table.Td data-label="Latency">
                {delivery.latency_ms === null ? '—' : `${delivery.latency_ms} ms`}
              </Table.Td>
              <Table.Td data-label="Last error">
                <Outcome delivery={delivery} now={now} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
