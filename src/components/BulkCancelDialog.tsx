import { Alert, Badge, Button, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { DialogFooter } from './DialogFooter';
import { useBulkCancel, type CancelOutcome } from '../api/mutations';
import {
  PLAN_TITLES,
  jobsToCancel,
  planBulkCancel,
  type CancelTarget,
} from '../lib/bulk-cancel-plan';
import { JobNameList } from './JobNameList';
import { shortId } from '../lib/short-id';

function PlanGroup({
  title,
  jobs,
  testId,
}: {
  title: string;
  jobs: CancelTarget[];
  testId: string;
}) {
  if (jobs.length === 0) return null;
  return (
    <Stack gap={4} data-testid={testId}>
      <Title order={3} size="h5">
        {title} ({jobs.length})
      </Title>
      <JobNameList jobs={jobs} />
    </Stack>
  );
}

const OUTCOME_LABELS = {
  accepted: { text: 'accepted', color: 'green' },
  refused: { text: 'refused', color: 'yellow' },
  failed: { text: 'failed', color: 'red' },
} as const;

function Outcomes({ outcomes }: { outcomes: CancelOutcome[] }) {
  return (
    <Table aria-label="Cancel results" data-testid="bulk-cancel-results">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Job</Table.Th>
          <Table.Th>Result</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {outcomes.map((outcome) => (
          <Table.Tr key={outcome.id} data-result={outcome.result}>
            <Table.Td>
              {outcome.name}{' '}
              <Text span size="xs" c="dimmed" ff="monospace">
                {shortId(outcome.id)}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={OUTCOME_LABELS[outcome.result].color} variant="filled">
                {OUTCOME_LABELS[outcome.result].text}
              </Badge>
              {outcome.result !== 'accepted' && (
                <Text size="xs" c="dimmed">
                  {outcome.message}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * Says what cancelling the selection will do to each job before doing it (cancelled at once,
 * through cancelling, or nothing because it ended), then reports what the service said per job.
 */
export function BulkCancelDialog({
  jobs,
  opened,
  onClose,
  onDone,
}: {
  jobs: CancelTarget[];
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const bulk = useBulkCancel();
  const plan = planBulkCancel(jobs);
  const targets = jobsToCancel(plan);
  const close = () => {
    if (bulk.isSuccess) onDone();
    bulk.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={bulk.isSuccess ? 'What happened to each job' : 'Cancel the selected jobs?'}
      size="lg"
    >
      {bulk.isSuccess ? (
        <Stack>
          <Outcomes outcomes={bulk.data} />
          <DialogFooter>
            <Button onClick={close}>Done</Button>
          </DialogFooter>
        </Stack>
      ) : (
        <Stack>
          <PlanGroup title={PLAN_TITLES.immediate} jobs={plan.immediate} testId="plan-immediate" />
          <PlanGroup title={PLAN_TITLES.stopping} jobs={plan.stopping} testId="plan-stopping" />
          <PlanGroup
            title={PLAN_TITLES.alreadyCancelling}
            jobs={plan.alreadyCancelling}
            testId="plan-cancelling"
          />
          <PlanGroup title={PLAN_TITLES.final} jobs={plan.final} testId="plan-final" />
          {bulk.isError && (
            <Alert color="red" role="alert" title="The cancel requests could not be sent">
              {bulk.error.message}
            </Alert>
          )}
          <DialogFooter>
            <Button variant="default" onClick={close}>
              Keep them
            </Button>
            <Button
              color="red"
              disabled={targets.length === 0}
              loading={bulk.isPending}
              onClick={() => bulk.mutate(targets)}
            >
              {targets.length === 1 ? 'Cancel 1 job' : `Cancel ${targets.length} jobs`}
            </Button>
          </DialogFooter>
        </Stack>
      )}
    </Modal>
  );
}
