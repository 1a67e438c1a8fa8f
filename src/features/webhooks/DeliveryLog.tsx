import { Anchor, Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { WebhookDelivery } from '../../../contract';
import { webhookDeliveriesQuery } from '../../api/webhooks';
import { DataTable, type DataColumn } from '../../components/DataTable';
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

function deliveryColumns(now: number): DataColumn<WebhookDelivery>[] {
  return [
    {
      header: 'Created',
      cell: (delivery) => <TimeText iso={delivery.created_at} relativeTo={now} />,
    },
    { header: 'Event', cell: (delivery) => delivery.event_type },
    {
      header: 'Job',
      cell: (delivery) =>
        delivery.job_id ? (
          <Anchor component={Link} to={`/jobs/${delivery.job_id}`} size="sm">
            {shortId(delivery.job_id)}
          </Anchor>
        ) : (
          '—'
        ),
    },
    {
      header: 'Delivery',
      cell: (delivery) => (
        <Badge variant="filled" color={STATE_COLORS[delivery.state]}>
          {delivery.state}
        </Badge>
      ),
    },
    { header: 'Attempts', cell: (delivery) => delivery.attempts },
    { header: 'Status', cell: (delivery) => delivery.response_status ?? '—' },
    {
      header: 'Latency',
      cell: (delivery) => (delivery.latency_ms === null ? '—' : `${delivery.latency_ms} ms`),
    },
    { header: 'Last error', cell: (delivery) => <Outcome delivery={delivery} now={now} /> },
  ];
}

/** A webhook's latest deliveries: what was sent, how the receiver answered, what comes next. */
export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const deliveries = useQuery(webhookDeliveriesQuery(webhookId));
  const now = useNow(true);
  if (deliveries.isError)
    return <ErrorAlert error={deliveries.error} title="The delivery log could not be read" />;
  return (
    <DataTable
      label="Deliveries"
      columns={deliveryColumns(now)}
      rows={deliveries.data}
      rowKey={(delivery) => delivery.id}
      rowTestId="delivery"
      empty="Nothing sent yet. Send a test event to see how the receiver answers."
      minWidth={720}
    />
  );
}
