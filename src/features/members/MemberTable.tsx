import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Member } from '../../../contract';
import { usePutMember, useRemoveMember } from '../../api/members';
import { DataTable, type DataColumn } from '../../components/DataTable';
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

function memberColumns(
  now: number,
  put: ReturnType<typeof usePutMember>,
  onRemove: (member: Member) => void,
): DataColumn<Member>[] {
  return [
    { header: 'Identity', cell: (member) => member.identity },
    {
      header: 'Role',
      cell: (member) => (
        <RoleSelect
          aria-label={`Role of ${member.identity}`}
          size="xs"
          w={340}
          value={member.role}
          disabled={put.isPending}
          onChange={(role) => put.mutate({ identity: member.identity, role })}
        />
      ),
    },
    { header: 'Added', cell: (member) => <TimeText iso={member.added_at} relativeTo={now} /> },
    { header: 'By', cell: (member) => member.added_by ?? 'command line' },
    {
      header: 'Last signed in',
      cell: (member) =>
        member.last_sign_in_at ? (
          <TimeText iso={member.last_sign_in_at} relativeTo={now} />
        ) : (
          'never'
        ),
    },
    {
      header: 'Actions',
      hideHeader: true,
      cell: (member) => (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          onClick={() => onRemove(member)}
          aria-label={`Remove ${member.identity}`}
        >
          Remove…
        </Button>
      ),
    },
  ];
}

/** Who may sign in, with their role (changed in place) and when they last did. */
export function MemberTable({
  members,
}: {
  /** Undefined while they load. */
  members: Member[] | undefined;
}) {
  const now = useNow(true, 60_000);
  const put = usePutMember();
  const [removing, setRemoving] = useState<Member | null>(null);
  return (
    <Stack>
      {/* A refusal (the last admin, say) in the service's words, above the table it is about. */}
      {put.isError && <ErrorAlert error={put.error} title="The role was not changed" />}
      <DataTable
        label="Members"
        columns={memberColumns(now, put, setRemoving)}
        rows={members}
        rowKey={(member) => member.identity}
        rowTestId="member"
        empty="No member yet."
        minWidth={760}
      />
      {removing && <RemoveDialog member={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}
