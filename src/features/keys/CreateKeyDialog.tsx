import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  NumberInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { KEY_LIMITS, type CreatedApiKey, type Role } from '../../../contract';
import { useCreateApiKey } from '../../api/api-keys';
import { CopyTextButton } from '../../components/CopyTextButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RoleSelect } from '../../components/RoleSelect';

/** The key, this once: the service keeps only its hash and never shows it again. */
function KeyOnce({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" title="Copy the key now">
        It is shown this once. Send it as <Code>Authorization: Bearer …</Code>; it acts as{' '}
        {created.role} in this project
        {created.expires_at ? ` until ${new Date(created.expires_at).toLocaleString()}` : ''}.
      </Alert>
      <Code block data-testid="created-key">
        {created.key}
      </Code>
      <Group justify="space-between">
        <CopyTextButton value={created.key} label="Copy key" size="sm" />
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

const EMPTY = { label: '', role: 'operator' as Role, days: '' as string | number };

/** Creates a key (label, role, optional expiry), then shows it once. */
export function CreateKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [fields, setFields] = useState(EMPTY);
  const set = (changes: Partial<typeof fields>) => setFields((shown) => ({ ...shown, ...changes }));
  const close = () => {
    create.reset();
    setFields(EMPTY);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      label: fields.label.trim(),
      role: fields.role,
      ...(typeof fields.days === 'number' && { expires_in_days: fields.days }),
    });
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Create an API key"
      // The key shown is gone for good once closed: only Done closes it.
      closeOnEscape={!create.data}
      closeOnClickOutside={!create.data}
      withCloseButton={!create.data}
    >
      {create.data ? (
        <KeyOnce created={create.data} onDone={close} />
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Label"
              description="What it is for, so it can be found and revoked later"
              placeholder="ci"
              value={fields.label}
              onChange={(event) => set({ label: event.currentTarget.value })}
              maxLength={KEY_LIMITS.labelMaxLength}
              required
              data-autofocus
            />
            <RoleSelect
              label="Role"
              value={fields.role}
              onChange={(role) => set({ role })}
              comboboxProps={{ withinPortal: false }}
            />
            <NumberInput
              label="Expires after (days)"
              description="Empty: it never expires"
              value={fields.days}
              onChange={(days) => set({ days })}
              min={1}
              max={KEY_LIMITS.maxDays}
              allowDecimal={false}
              allowNegative={false}
            />
            {create.isError && <ErrorAlert error={create.error} title="The key was not created" />}
            <Text size="xs" c="dimmed">
              The service keeps only a hash of the key: it is shown once, right after.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
