import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ApiKey } from '../../../contract';
import { useRevokeApiKey } from '../../api/api-keys';
import { ErrorAlert } from '../../components/ErrorAlert';

/** Revoke, asked first; warned when the key is the one this console relies on. */
export function RevokeKeyDialog({
  apiKey,
  warning,
  onClose,
}: {
  apiKey: ApiKey;
  warning: string | null;
  onClose: () => void;
}) {
  const revoke = useRevokeApiKey();
  const name = apiKey.label ?? apiKey.id;
  const confirm = () =>
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        onClose();
        notifications.show({ title: 'Key revoked', message: `${name}: refused from now on.` });
      },
    });
  return (
    <Modal opened onClose={onClose} title={`Revoke ${name}?`}>
      <Stack>
        <Text size="sm">
          Every request made with it is refused from now on. This cannot be undone: a new key would
          have to be created and handed out.
        </Text>
        {warning && (
          <Alert color="orange" title="This console may lose its access">
            {warning}
          </Alert>
        )}
        {revoke.isError && <ErrorAlert error={revoke.error} title="The key was not revoked" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Keep it
          </Button>
          <Button color="red.9" loading={revoke.isPending} onClick={confirm}>
            Revoke key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
