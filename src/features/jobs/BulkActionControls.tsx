import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import type { BulkAction } from '../../../contract';
import { downloadBulkResults, useStopBulkAction } from '../../api/bulk-actions';
import { useCan } from '../../api/permissions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PermittedButton } from '../../components/PermittedButton';

/** Stop (while it runs) and its per-job results as a CSV file, each saying when it failed. */
export function BulkActionControls({
  action,
  size = 'sm',
  naming,
}: {
  action: BulkAction;
  size?: 'xs' | 'sm';
  /** Which action the buttons are of, where several are listed: "cancel state=failed". */
  naming?: string;
}) {
  const named = (verb: string) => (naming ? `${verb}: ${naming}` : undefined);
  const stop = useStopBulkAction();
  const permission = useCan('stopBulkAction');
  const [download, setDownload] = useState<unknown>(null);
  return (
    <Stack gap="xs">
      {stop.isError && <ErrorAlert error={stop.error} title="The action could not be stopped" />}
      {download !== null && <ErrorAlert error={download} title="The results could not be saved" />}
      <Group gap="xs" justify="flex-end">
        {action.state === 'running' && (
          <PermittedButton
            permission={permission}
            variant="default"
            size={size}
            loading={stop.isPending}
            aria-label={named('Stop')}
            onClick={() => stop.mutate(action.id)}
          >
            Stop
          </PermittedButton>
        )}
        <Button
          variant="default"
          size={size}
          disabled={action.processed === 0}
          aria-label={named('Download results (CSV)')}
          onClick={() => downloadBulkResults(action.id).then(() => setDownload(null), setDownload)}
        >
          Download results (CSV)
        </Button>
      </Group>
    </Stack>
  );
}
