import { Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { Suspense, useState } from 'react';
import type { JobRecord } from '../../../../contract';
import { PermittedButton } from '../../../components/PermittedButton';
import { lazyPage } from '../../../lib/lazy-page';
import { useExecAccess } from './exec-access';

// xterm.js and its styles load with the first terminal opened, never with the page.
const JobTerminal = lazyPage(() => import('./JobTerminal'));

/**
 * A shell in a running job, for an operator where the project enables it. Shown while the job
 * runs, and while a terminal opened in it is on the page (it says how it ended).
 */
export function ShellSection({ job }: { job: JobRecord }) {
  const [open, setOpen] = useState(false);
  const access = useExecAccess();
  if (!access || (!open && job.state !== 'running')) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="shell-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="shell-title">
          Shell
        </Title>
        {open ? (
          <Suspense fallback={<Loader size="sm" aria-label="Loading the terminal" />}>
            <JobTerminal
              key={job.id}
              jobId={job.id}
              jobState={job.state}
              onClose={() => setOpen(false)}
            />
          </Suspense>
        ) : (
          <>
            <PermittedButton
              permission={access}
              variant="light"
              w="fit-content"
              onClick={() => setOpen(true)}
            >
              Open a shell
            </PermittedButton>
            {!access.allowed && access.reason && (
              <Text size="sm" c="dimmed" data-testid="shell-refused">
                {access.reason}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
