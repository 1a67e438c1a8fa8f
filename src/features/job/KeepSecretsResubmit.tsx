import { Button, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { useResubmitJob } from '../../api/mutations';
import { ErrorAlert } from '../../components/ErrorAlert';

/**
 * "Submit again" done by the service: the job's secret values are copied there, so this browser
 * never holds them and nobody types them again; the new job's page opens.
 */
export function KeepSecretsResubmit({ jobId, label }: { jobId: string; label: string }) {
  const resubmit = useResubmitJob();
  const navigate = useNavigate();
  const hint = useId();
  return (
    <Stack gap={4} align="flex-end">
      <Button
        loading={resubmit.isPending}
        aria-describedby={hint}
        onClick={() =>
          resubmit.mutate(jobId, {
            onSuccess: (id) => void navigate(`/jobs/${encodeURIComponent(id)}`),
          })
        }
      >
        {label}
      </Button>
      <Text id={hint} size="xs" c="dimmed">
        Keeps the secret values of this job, in the service
      </Text>
      {resubmit.error && <ErrorAlert error={resubmit.error} title="Not submitted again" />}
    </Stack>
  );
}
