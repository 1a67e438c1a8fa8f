import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from '../../../contract';
import { auditQuery, type AuditFilter } from '../../api/audit';
import { useCapabilities } from '../../api/capabilities';
import { identityQuery } from '../../api/identity';
import { shortId } from '../../lib/short-id';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TimeText } from '../../components/TimeText';

const HOUR_MS = 3600_000;
const PERIODS = [
  { value: 'any', label: 'Any time', ms: null },
  { value: '1h', label: 'Last hour', ms: HOUR_MS },
  { value: '24h', label: 'Last 24 hours', ms: 24 * HOUR_MS },
  { value: '7d', label: 'Last 7 days', ms: 7 * 24 * HOUR_MS },
  { value: '30d', label: 'Last 30 days', ms: 30 * 24 * HOUR_MS },
] as const;
type Period = (typeof PERIODS)[number]['value'];

/** The detail as one line of `key: value` pairs; it never holds a secret (the service's rule). */
const detailText = (detail: AuditEvent['detail']) =>
  Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' · ');

const EVENT_COLUMNS: DataColumn<AuditEvent>[] = [
  { header: 'Time', cell: (event) => <TimeText iso={event.at} /> },
  { header: 'Actor', monospace: true, cell: (event) => event.actor },
  { header: 'Action', cell: (event) => <Code>{event.action}</Code> },
  {
    header: 'Target',
    monospace: true,
    cell: (event) =>
      event.target ? <span title={event.target}>{shortId(event.target)}</span> : '—',
  },
  { header: 'Address', monospace: true, cell: (event) => event.address },
  { header: 'Detail', cell: (event) => detailText(event.detail) },
];

function AuditTrail() {
  const [action, setAction] = useState<AuditAction | null>(null);
  const [actorInput, setActorInput] = useState('');
  const [actor] = useDebouncedValue(actorInput.trim(), 300);
  const [period, setPeriod] = useState<Period>('any');
  // The cursors of the pages before this one: "Newer" goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const [sinceMs, setSinceMs] = useState<number | null>(null);
  const filter: AuditFilter = {
    action: action ?? undefined,
    actor: actor || undefined,
    since: sinceMs === null ? undefined : new Date(sinceMs).toISOString(),
    cursor: cursors.at(-1),
  };
  const page = useQuery(auditQuery(filter));
  const restart = () => setCursors([]);
  return (
    <Stack>
      <Group align="end">
        <Select
          label="Action"
          placeholder="Every action"
          data={[...AUDIT_ACTIONS]}
          value={action}
          onChange={(value) => {
            setAction(value as AuditAction | null);
            restart();
          }}
          clearable
          searchable
          w={220}
        />
        <TextInput
          label="Actor"
          placeholder="key:… or user:…"
          value={actorInput}
          onChange={(event) => {
            setActorInput(event.currentTarget.value);
            restart();
          }}
          w={260}
        />
        <Select
          label="Time"
          data={PERIODS.map(({ value, label }) => ({ value, label }))}
          value={period}
          onChange={(value) => {
            const chosen = PERIODS.find((p) => p.value === value) ?? PERIODS[0];
            setPeriod(chosen.value);
            // Fixed when chosen: a moving start would make every poll a new query.
            setSinceMs(chosen.ms === null ? null : Date.now() - chosen.ms);
            restart();
          }}
          allowDeselect={false}
          w={180}
        />
      </Group>
      {page.isError ? (
        <ErrorAlert error={page.error} title="The audit trail could not be read" />
      ) : (
        <DataTable
          label="Audit events"
          columns={EVENT_COLUMNS}
          rows={page.data?.items}
          rowKey={(event) => event.id}
          rowTestId="audit-event"
          empty="No event matches."
          minWidth={800}
          withTableBorder
        />
      )}
      <Group>
        <Button
          variant="default"
          disabled={cursors.length === 0}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer
        </Button>
        <Button
          variant="default"
          disabled={!page.data?.next_cursor || page.isPlaceholderData}
          onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}
        >
          Older
        </Button>
      </Group>
    </Stack>
  );
}

/** Who did what in the project, newest first: for its admins. */
export default function AuditPage() {
  const capabilities = useCapabilities();
  const identity = useQuery({
    ...identityQuery,
    enabled: capabilities.data?.identity === true,
  });
  let body;
  if (capabilities.isPending || (capabilities.data?.identity && identity.isPending))
    body = <Loader aria-label="Loading" />;
  else if (!capabilities.data?.audit)
    body = (
      <Alert color="gray" title="This service keeps no audit trail">
        It speaks the job API but has no audit trail to show here.
      </Alert>
    );
  else if (identity.data?.role !== 'admin')
    body = (
      <Alert color="gray" title="Only the project’s admins see the audit trail">
        This key or member is not an admin of the project.
      </Alert>
    );
  else body = <AuditTrail />;
  return (
    <Stack maw={1400}>
      <Title order={2}>Audit trail</Title>
      <Text size="sm" c="dimmed">
        Who submitted, cancelled or changed what in this project, and from where, newest first.
      </Text>
      {body}
    </Stack>
  );
}
