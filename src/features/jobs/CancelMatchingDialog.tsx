import { Button, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { DialogFooter } from '../../components/DialogFooter';
import { useQuery } from '@tanstack/react-query';
import type { BulkCancelDryRun, BulkCancelPlan, BulkFilter } from '../../../contract';
import { bulkCancelPlanQuery, useBulkActionRun } from '../../api/bulk-actions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { JobNameList } from '../../components/JobNameList';
import { PLAN_TITLES } from '../../lib/bulk-cancel-plan';
import { BulkActionProgress } from './BulkActionProgress';
import { count, filterText, jobs } from './bulk-text';

const PLAN_ROWS: [keyof BulkCancelPlan, string][] = [
  ['cancelled_at_once', PLAN_TITLES.immediate],
  ['stopped', PLAN_TITLES.stopping],
  ['already_cancelling', PLAN_TITLES.alreadyCancelling],
  ['skipped', PLAN_TITLES.final],
];

/** How many of the newest matching jobs are named: enough to recognise them, the buttons in view. */
const NAMED = 5;

/** What the service would do to every matching job, and the newest of them by name. */
function PlanSummary({ dryRun, filter }: { dryRun: BulkCancelDryRun; filter: BulkFilter }) {
  const more = dryRun.matched - Math.min(NAMED, dryRun.sample.length);
  return (
    <Stack gap="sm">
      <Text>{jobs(dryRun.matched)} match these filters.</Text>
      <Text size="sm" c="dimmed" data-testid="bulk-filter">
        Filters: {filterText(filter)}
      </Text>
      <Table aria-label="What cancelling them does" data-testid="bulk-plan">
        <Table.Tbody>
          {PLAN_ROWS.filter(([field]) => dryRun.plan[field] > 0).map(([field, title]) => (
            <Table.Tr key={field} data-plan={field}>
              <Table.Td>{title}</Table.Td>
              <Table.Td ta="right">{count(dryRun.plan[field])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" fw={500}>
        The newest of them
      </Text>
      <JobNameList
        jobs={dryRun.sample
          .slice(0, NAMED)
          .map((job) => ({ id: job.job_id, name: job.job_name, state: job.state }))}
      />
      {more > 0 && (
        <Text size="sm" c="dimmed">
          and {count(more)} more
        </Text>
      )}
    </Stack>
  );
}

/**
 * Cancels every job the table's filters match, not only the page shown: the service's dry run
 * first, then the action runs in the service while this shows its progress.
 */
export function CancelMatchingDialog({
  filter,
  opened,
  onClose,
  onFinished,
}: {
  /** Fixed when the dialog opens: the plan and the action are of the same jobs. */
  filter: BulkFilter;
  opened: boolean;
  onClose: () => void;
  /** Closed once the action ended: what was selected is gone. */
  onFinished: () => void;
}) {
  const plan = useQuery({ ...bulkCancelPlanQuery(filter), enabled: opened });
  const { start, action } = useBulkActionRun('cancel');
  const close = () => {
    const finished = action.data !== undefined && action.data.state !== 'running';
    start.reset();
    onClose();
    if (finished) onFinished();
  };
  const toCancel = plan.data ? plan.data.plan.cancelled_at_once + plan.data.plan.stopped : 0;
  return (
    <Modal
      opened={opened}
      // Closed while the start is on its way, the action would run unseen and could be begun twice.
      onClose={start.isPending ? () => {} : close}
      title={start.data ? 'Cancelling every matching job' : 'Cancel every matching job?'}
      size="lg"
    >
      {action.data ? (
        <BulkActionProgress action={action.data} onClose={close} />
      ) : plan.isPending ? (
        <Loader aria-label="Counting the matching jobs" />
      ) : plan.isError ? (
        <ErrorAlert error={plan.error} title="The matching jobs could not be counted" />
      ) : (
        <Stack>
          <PlanSummary dryRun={plan.data} filter={filter} />
          {start.isError && <ErrorAlert error={start.error} title="The cancel could not begin" />}
          <DialogFooter>
            <Button variant="default" onClick={close}>
              Keep them
            </Button>
            <Button
              color="red"
              disabled={toCancel === 0}
              loading={start.isPending}
              onClick={() => start.mutate(filter)}
            >
              Cancel {jobs(toCancel)}
            </Button>
          </DialogFooter>
        </Stack>
      )}
    </Modal>
  );
}
