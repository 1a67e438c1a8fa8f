import { Badge, Button, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey } from '../../../contract';
import { TimeText } from '../../components/TimeText';
import { useNow } from '../../lib/use-now';
import { keyStatus, revokeWarning, type KeyStatus } from './key-status';
import { RevokeKeyDialog } from './RevokeKeyDialog';

const STATUS_COLORS: Record<KeyStatus, string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

/** The project's keys, newest first: who made each, when it was last used, and whether it works. */
export function KeyTable({ keys, actor }: { keys: ApiKey[]; actor: string | undefined }) {
  const now = useNow(true, 60_000);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <>
      <Table.ScrollContainer minWidth={880}>
        <Table data-cards striped fz="sm" aria-label="API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Label</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Last used</Table.Th>
              {/* Wide enough for "revoked": a narrower column cuts the badge. */}
              <Table.Th miw={100}>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((key) => {
              const status = keyStatus(key, now);
              return (
                <Table.Tr key={key.id} data-testid="api-key">
                  <Table.Td data-label="Label">
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
                  </Table.Td>
                  <Table.Td data-label="Role">{key.role}</Table.Td>
                  <Table.Td data-label="Created">
                    <TimeText iso={key.created_at} relativeTo={now} />
                  </Table.Td>
                  <Table.Td data-label="By">{key.created_by ?? 'command line'}</Table.Td>
                  <Table.Td data-label="Expires">
                    {key.expires_at ? <TimeText iso={key.expires_at} /> : 'never'}
                  </Table.Td>
                  <Table.Td data-label="Last used">
                    {key.last_used_at ? (
                      <TimeText iso={key.last_used_at} relativeTo={now} />
                    ) : (
                      'never'
                    )}
                  </Table.Td>
                  <Table.Td data-label="Status">
                    <Badge variant="filled" color={STATUS_COLORS[status]}>
                      {status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {status === 'active' && (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setRevoking(key)}
                        aria-label={`Revoke ${key.label ?? key.id}`}
                      >
                        Revoke…
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
