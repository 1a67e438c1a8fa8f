import { Paper, Stepper } from '@mantine/core';
import { isFinalState, type JobRecord } from '../../../contract';
import { stateColor } from '../../components/StateBadge';
import { activeStep, lifecycleSteps } from './lifecycle';

/** Submitted → (Pending) → Runnable → Starting → Running → how it ended. */
export function LifecycleStepper({ job }: { job: JobRecord }) {
  const steps = lifecycleSteps(job);
  const ended = isFinalState(job.state);
  return (
    <Paper withBorder p="md">
      <Stepper active={activeStep(job, steps)} size="sm" allowNextStepsSelect={false}>
        {steps.map((step) => {
          const outcome = step.state === 'finished' && ended;
          return (
            <Stepper.Step
              key={step.state}
              label={outcome ? job.state : step.label}
              color={outcome ? stateColor(job.state) : undefined}
            />
          );
        })}
      </Stepper>
    </Paper>
  );
}
