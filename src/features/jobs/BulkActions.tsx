import { Badge, Button, Loader, Modal, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { BulkAction } from '../../../contract';
import { bulkActionListQuery } from '../../api/bulk-actions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { dayjs } from '../../lib/time';
import { BulkActionControls } from './BulkActionControls';
import { filterText, progressText } from './bulk-text';

const STATE_COLORS: Record<BulkAction['state'], string> = {
  running: 'blue',
  done: 'green',
  stopped: 'gray',
};

function ActionRow({ action }: { action: BulkAction }) {
  const what = `cancel ${filterText(action.filter)}, begun ${dayjs(action.created_at).fromNow()}`;
  return (
    <Table.Tr data-bulk-action={action.id}>
      <Table.Td>
        <Text size="sm" title={action.created_at}>
          {dayjs(action.created_at).fromNow()}
        </Text>
        <Text size="xs" c="dimmed">
          by {action.created_by}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">Cancel: {filterText(action.filter)}</Text>
        <Text size="xs" c="dimmed" data-testid="bulk-row-progress">
          {progressText(action)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={STATE_COLORS[action.state]} variant="filled">
          {action.state}
        </Badge>
      </Table.Td>
      <Table.Td>
        <BulkActionControls action={action} size="xs" naming={what} />
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The project's latest bulk actions, found again after their dialog was closed (or from another
 * browser): how far each went, Stop, and its results.
 */
export function BulkActions() {
  const [opened, dialog] = useDisclosure();
  const list = useQuery({ ...bulkActionListQuery, enabled: opened });
  return (
    <>
      <Button variant="default" onClick={dialog.open}>
        Bulk actions
      </Button>
      <Modal opened={opened} onClose={dialog.close} title="Bulk actions" size="xl">
        {list.isPending ? (
          <Loader aria-label="Loading the bulk actions" />
        ) : list.isError ? (
          <ErrorAlert error={list.error} title="The bulk actions could not be read" />
        ) : list.data.length === 0 ? (
          <Text c="dimmed">
            None yet. Select every job on a page, then all matching jobs, to cancel them all.
          </Text>
        ) : (
          <Stack>
            <Table aria-label="Latest bulk actions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Began</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Controls</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((action) => (
                  <ActionRow key={action.id} action={action} />
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        )}
      </Modal>
    </>
  );
}
