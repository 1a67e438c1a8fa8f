import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { apiKeyListQuery } from '../../api/api-keys';
import { useCapabilities } from '../../api/capabilities';
import { identityQuery } from '../../api/identity';
import { useCan } from '../../api/permissions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleGate } from '../../components/RoleGate';
import { CreateKeyDialog } from './CreateKeyDialog';
import { KeyTable } from './KeyTable';

function KeyList() {
  const keys = useQuery(apiKeyListQuery);
  // Which key this console acts with, to warn before it is revoked.
  const actor = useQuery(identityQuery).data?.actor;
  const [creating, { open, close }] = useDisclosure();
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Keys let scripts and CI use the API as this project, each with its role. Revoke one that
          leaked or is no longer used.
        </Text>
        <Button onClick={open}>Create a key</Button>
      </Group>
      <CreateKeyDialog opened={creating} onClose={close} />
      {keys.isError ? (
        <ErrorAlert error={keys.error} title="The keys could not be read" />
      ) : (
        <KeyTable keys={keys.data} actor={actor} />
      )}
    </Stack>
  );
}

/** The project's API keys, for its admins: create (shown once), see their use, revoke. */
export default function KeysPage() {
  const capabilities = useCapabilities();
  const permission = useCan('listKeys');
  return (
    <Stack maw={1400}>
      <Title order={2}>API keys</Title>
      {capabilities.isPending ? (
        <Loader aria-label="Loading" />
      ) : capabilities.data?.keys ? (
        <RoleGate permission={permission}>
          <KeyList />
        </RoleGate>
      ) : (
        <Alert color="gray" title="This service manages no keys here">
          Its keys are made with the command line: jobdeck keys create.
        </Alert>
      )}
    </Stack>
  );
}
