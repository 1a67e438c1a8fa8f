import { Button, Progress, Stack, Text } from '@mantine/core';
import type { BulkAction } from '../../../contract';
import { DialogFooter } from '../../components/DialogFooter';
import { BulkActionControls } from './BulkActionControls';
import { progressText } from './bulk-text';

/** How far the action went, then what it did, with its per-job results to download. */
export function BulkActionProgress({
  action,
  onClose,
}: {
  action: BulkAction;
  onClose: () => void;
}) {
  const running = action.state === 'running';
  return (
    <Stack>
      <Progress
        value={action.matched === 0 ? 100 : (100 * action.processed) / action.matched}
        animated={running}
        aria-label="Jobs reached"
      />
      <Text data-testid="bulk-progress" role="status">
        {progressText(action)}
      </Text>
      {running && (
        <Text size="sm" c="dimmed">
          The service carries on if you close this, and after a restart; Bulk actions on the jobs
          page shows it.
        </Text>
      )}
      <BulkActionControls action={action} />
      <DialogFooter>
        <Button onClick={onClose}>{running ? 'Close' : 'Done'}</Button>
      </DialogFooter>
    </Stack>
  );
}
