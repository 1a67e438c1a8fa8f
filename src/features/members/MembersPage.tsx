import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCapabilities } from '../../api/capabilities';
import { memberListQuery } from '../../api/members';
import { useCan } from '../../api/permissions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleGate } from '../../components/RoleGate';
import { AddMemberForm } from './AddMemberForm';
import { MemberTable } from './MemberTable';

function MemberList() {
  const members = useQuery(memberListQuery);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Who may sign in to this project, and with which role. A member is named by e-mail (a local
        user&apos;s, or one the identity provider verified) or by sub:&lt;subject&gt;.
      </Text>
      <AddMemberForm />
      {members.isError ? (
        <ErrorAlert error={members.error} title="The members could not be read" />
      ) : (
        <MemberTable members={members.data} />
      )}
    </Stack>
  );
}

/** The project's members, for its admins: add, change a role, remove. */
export default function MembersPage() {
  const capabilities = useCapabilities();
  const permission = useCan('listMembers');
  return (
    <Stack maw={1400}>
      <Title order={2}>Members</Title>
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : capabilities.data?.members ? (
        <RoleGate permission={permission}>
          <MemberList />
        </RoleGate>
      ) : (
        <Alert color="gray" title="This service has no members to manage">
          Nobody signs in to it: its API keys say who acts.
        </Alert>
      )}
    </Stack>
  );
}
