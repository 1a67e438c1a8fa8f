import { Button, Code, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { JobRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { CopyTextButton } from '../../components/CopyTextButton';
import { StateBadge } from '../../components/StateBadge';
import { recentJobsStore } from '../../lib/history';
import { CancelButton } from './CancelControl';

/** Name, state and id, with what can be done: submit again and cancel. */
export function JobHeader({ job }: { job: JobRecord }) {
  // This browser's own submissions, or any job whose execution the service describes.
  const describable = useCapabilities().data?.execution === true;
  const submittedHere = recentJobsStore
    .use()
    .some((recent) => recent.id === job.id && recent.payload);
  const canResubmit = submittedHere || describable;
  return (
    <Group justify="space-between" align="flex-start">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={2}>{job.name}</Title>
          <StateBadge state={job.state} size="lg" />
        </Group>
        <Group gap={6}>
          <Code>{job.id}</Code>
          <CopyTextButton value={job.id} label="Copy id" size="compact-xs" variant="subtle" />
        </Group>
      </Stack>
      <Group>
        {canResubmit && (
          <Button
            variant="default"
            component={Link}
            to={`/submit?from=${encodeURIComponent(job.id)}`}
          >
            Submit again
          </Button>
        )}
        <CancelButton job={job} />
      </Group>
    </Group>
  );
}
