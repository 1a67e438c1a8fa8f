import { Button, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import type { JobRecord } from '../../../contract';
import { isArrayParent, useJobArray } from '../../api/arrays';
import { useJobDependencies, waitsForJobs } from '../../api/dependencies';
import { ArraySection } from './ArraySection';
import { AttemptsSection } from './AttemptsSection';
import { useChildStates } from './child-states';
import { Countdown } from './Countdown';
import { DependenciesSection } from './DependenciesSection';
import { ExecutionPanel } from './ExecutionPanel';
import { JobHeader } from './JobHeader';
import { JobNotice } from './JobNotice';
import { JobTimeline } from './JobTimeline';
import { LifecycleStepper } from './LifecycleStepper';
import { LogViewer } from './logs/LogViewer';
import { ShellSection } from './terminal/ShellSection';

const OUTPUT_ID = 'job-output';

export function JobView({ job }: { job: JobRecord }) {
  const [tab, setTab] = useState<string | null>('logs');
  const dependencies = useJobDependencies(job);
  // Scheduled and waiting for other jobs: it starts once they ended, which no countdown can say.
  const waitsForOthers = dependencies !== null && waitsForJobs(dependencies);
  const [childStates, setChildStates] = useChildStates();
  const array = useJobArray(job, childStates);
  return (
    <Stack>
      <JobHeader job={job} array={array.array} />
      {/* On a phone the output is a screen or two down: one tap away from the top. */}
      <Button
        component="a"
        href={`#${OUTPUT_ID}`}
        onClick={() => setTab('logs')}
        hiddenFrom="sm"
        variant="light"
        w="fit-content"
      >
        Logs
      </Button>
      <JobNotice job={job} />
      {job.state === 'pending' && job.schedule_at && !waitsForOthers && (
        <Countdown at={job.schedule_at} />
      )}
      <LifecycleStepper job={job} />
      <ExecutionPanel job={job} />
      {/* An array's parent runs nothing itself: no container to open a shell in. */}
      {!isArrayParent(array.array) && <ShellSection job={job} />}
      <ArraySection
        key={job.id}
        parentId={job.id}
        view={array}
        states={childStates}
        onStatesChange={setChildStates}
      />
      <DependenciesSection job={job} />
      <AttemptsSection job={job} onShowCurrentOutput={() => setTab('logs')} />
      {/* Only the shown tab is mounted: hidden logs are not read every poll. A jump here stops
          below the fixed header. */}
      <Tabs
        id={OUTPUT_ID}
        value={tab}
        onChange={setTab}
        keepMounted={false}
        style={{ scrollMarginTop: 'var(--app-shell-header-offset, 0rem)' }}
      >
        <Tabs.List>
          <Tabs.Tab value="logs">Logs</Tabs.Tab>
          <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="logs" pt="md">
          {isArrayParent(array.array) ? (
            <Text c="dimmed" data-testid="array-logs">
              An array&apos;s parent runs nothing itself: each child&apos;s output is on its own
              page.
            </Text>
          ) : (
            <LogViewer job={job} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="timeline" pt="md">
          <JobTimeline job={job} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
