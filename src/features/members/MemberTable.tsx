import { Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import type { Member } from '../../../contract';
import { usePutMember, useRemoveMember } from '../../api/members';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleSelect } from '../../components/RoleSelect';
import { TimeText } from '../../components/TimeText';
import { useNow } from '../../lib/use-now';

function RemoveDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const remove = useRemoveMember();
  return (
    <Modal opened onClose={onClose} title={`Remove ${member.identity}?`}>
      <Stack>
        <Text size="sm">
          They can no longer sign in to this project; a session they have open loses it at its next
          request.
        </Text>
        {remove.isError && <ErrorAlert error={remove.error} title="The member was not removed" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Keep them
          </Button>
          <Button
            color="red.9"
            loading={remove.isPending}
            onClick={() => remove.mutate(member.identity, { onSuccess: onClose })}
          >
            Remove member
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Who may sign in, with their role (changed in place) and when they last did. */
export function MemberTable({ members }: { members: Member[] }) {
  const now = useNow(true, 60_000);
  const put = usePutMember();
  const [removing, setRemoving] = useState<Member | null>(null);
  return (
    <Stack>
      {/* A refusal (the last admin, say) in the service's words, above the table it is about. */}
      {put.isError && <ErrorAlert error={put.error} title="The role was not changed" />}
      <Table.ScrollContainer minWidth={760}>
        <Table data-cards striped fz="sm" aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Identity</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Added</Table.Th>
              <Table.Th>By</Table.Th>
              <Table.Th>Last signed in</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => (
              <Table.Tr key={member.identity} data-testid="member">
                <Table.Td data-label="Identity">{member.identity}</Table.Td>
                <Table.Td data-label="Role">
                  <RoleSelect
                    aria-label={`Role of ${member.identity}`}
                    size="xs"
                    w={340}
                    value={member.role}
                    disabled={put.isPending}
                    onChange={(role) => put.mutate({ identity: member.identity, role })}
                  />
                </Table.Td>
                <Table.Td data-label="Added">
                  <TimeText iso={member.added_at} relativeTo={now} />
                </Table.Td>
                <Table.Td data-label="By">{member.added_by ?? 'command line'}</Table.Td>
                <Table.Td data-label="Last signed in">
                  {member.last_sign_in_at ? (
                    <TimeText iso={member.last_sign_in_at} relativeTo={now} />
                  ) : (
                    'never'
                  )}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => setRemoving(member)}
                    aria-label={`Remove ${member.identity}`}
                  >
                    Remove…
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {removing && <RemoveDialog member={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}
