import { Badge, Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey } from '../../../contract';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { TimeText } from '../../components/TimeText';
import { useNow } from '../../lib/use-now';
import { keyStatus, revokeWarning, type KeyStatus } from './key-status';
import { RevokeKeyDialog } from './RevokeKeyDialog';

const STATUS_COLORS: Record<KeyStatus, string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

function keyColumns(
  now: number,
  actor: string | undefined,
  onRevoke: (key: ApiKey) => void,
): DataColumn<ApiKey>[] {
  return [
    {
      header: 'Label',
      cell: (key) => (
        <>
          {key.label ?? (
            <Text span c="dimmed">
              {key.id}
            </Text>
          )}
          {actor === `key:${key.id}` && (
            <Badge ml="xs" variant="light" size="sm">
              this console
            </Badge>
          )}
        </>
      ),
    },
    { header: 'Role', cell: (key) => key.role },
    { header: 'Created', cell: (key) => <TimeText iso={key.created_at} relativeTo={now} /> },
    { header: 'By', cell: (key) => key.created_by ?? 'command line' },
    {
      header: 'Expires',
      cell: (key) => (key.expires_at ? <TimeText iso={key.expires_at} /> : 'never'),
    },
    {
      header: 'Last used',
      cell: (key) =>
        key.last_used_at ? <TimeText iso={key.last_used_at} relativeTo={now} /> : 'never',
    },
    {
      header: 'Status',
      // Wide enough for "revoked": a narrower column cuts the badge.
      minWidth: 100,
      cell: (key) => {
        const status = keyStatus(key, now);
        return (
          <Badge variant="filled" color={STATUS_COLORS[status]}>
            {status}
          </Badge>
        );
      },
    },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (key) =>
        keyStatus(key, now) === 'active' && (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => onRevoke(key)}
            aria-label={`Revoke ${key.label ?? key.id}`}
          >
            Revoke…
          </Button>
        ),
    },
  ];
}

/** The project's keys, newest first: who made each, when it was last used, and whether it works. */
export function KeyTable({
  keys,
  actor,
}: {
  /** Undefined while they load. */
  keys: ApiKey[] | undefined;
  actor: string | undefined;
}) {
  const now = useNow(true, 60_000);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <>
      <DataTable
        label="API keys"
        columns={keyColumns(now, actor, setRevoking)}
        rows={keys}
        rowKey={(key) => key.id}
        rowTestId="api-key"
        empty="No key yet."
        minWidth={880}
      />
      {revoking && (
        <RevokeKeyDialog
          apiKey={revoking}
          warning={revokeWarning(revoking, actor)}
          onClose={() => setRevoking(null)}
        />
      )}
    </>
  );
}
