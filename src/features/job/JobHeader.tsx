import { Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  UNSUCCESSFUL_STATES,
  dependencyStatus,
  isFinalState,
  type JobRecord,
} from '../../../contract';
import { childrenNotEnded, isArrayParent, type ArrayAnswer } from '../../api/arrays';
import { useCapabilities } from '../../api/capabilities';
import { useCan } from '../../api/permissions';
import { jobExecutionQuery } from '../../api/queries';
import { CopyTextButton } from '../../components/CopyTextButton';
import { StateBadge } from '../../components/StateBadge';
import { shortId } from '../../lib/short-id';
import { ArrayPlace } from './ArrayPlace';
import { CancelButton } from './CancelControl';
import { KeepSecretsResubmit } from './KeepSecretsResubmit';
import { resubmitPath, useCanResubmit } from './resubmit';

/**
 * Name, state and id (and a child's place in its array), with what can be done: submit again, submit a job that waits for this one
 * to complete (on a service with dependencies), and cancel. A job that failed, timed
 * out or erred on a service with retries gets "Retry" as the page's main action. A job with
 * sensitive values is submitted again by the service where it can (its secrets kept there, never
 * in the browser); the form, where they are typed again, is then "Edit and submit again".
 */
export function JobHeader({ job, array }: { job: JobRecord; array: ArrayAnswer | null }) {
  const capabilities = useCapabilities().data;
  // Both open the submit form: nothing to offer a role that may not submit.
  const canSubmit = useCan('submitJob').allowed;
  // By hand: what ended without its work done, once the service's own retries (if any) gave up.
  const retry = capabilities?.attempts === true && UNSUCCESSFUL_STATES.includes(job.state);
  const canResubmit = useCanResubmit(job.id);
  const describable = capabilities?.execution === true;
  const ended = isFinalState(job.state);
  const execution = useQuery({ ...jobExecutionQuery(job), enabled: describable && ended });
  const keepsSecrets =
    canSubmit &&
    ended &&
    capabilities?.resubmit === true &&
    execution.data?.env.some((variable) => variable.sensitive) === true;
  const resubmitLabel = retry ? 'Retry' : 'Submit again';
  // A job that will never complete cannot be waited for as afterok: the service would refuse it.
  const canFollow =
    canSubmit &&
    capabilities?.dependencies === true &&
    dependencyStatus('afterok', job.state) !== 'unmeetable';
  return (
    <Group justify="space-between" align="flex-start">
      <Stack gap={4}>
        <Group gap="sm">
          <Title order={2}>{job.name}</Title>
          <StateBadge state={job.state} size="lg" />
        </Group>
        <Group gap={6}>
          <Code data-testid="job-short-id">{shortId(job.id)}</Code>
          <Text span size="xs" c="dimmed" ff="monospace">
            {job.id}
          </Text>
          <CopyTextButton value={job.id} label="Copy id" size="compact-xs" variant="subtle" />
        </Group>
        {array && <ArrayPlace name={job.name} array={array} />}
      </Stack>
      <Group>
        {keepsSecrets && <KeepSecretsResubmit jobId={job.id} label={resubmitLabel} />}
        {canResubmit && (
          <Button
            variant={retry && !keepsSecrets ? 'filled' : 'default'}
            component={Link}
            to={resubmitPath(job.id)}
          >
            {keepsSecrets ? 'Edit and submit again' : resubmitLabel}
          </Button>
        )}
        {canFollow && (
          <Button
            variant="default"
            component={Link}
            to={`/submit?after=${encodeURIComponent(job.id)}`}
          >
            Submit a job after this one
          </Button>
        )}
        <CancelButton
          job={job}
          childrenLeft={isArrayParent(array) ? childrenNotEnded(array) : undefined}
        />
      </Group>
    </Group>
  );
}
