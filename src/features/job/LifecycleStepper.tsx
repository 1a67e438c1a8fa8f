import { CloseIcon, Paper, Stepper } from '@mantine/core';
import { isFinalState, type JobRecord } from '../../../contract';
import { stateColor } from '../../components/StateBadge';
import { activeStep, endedUnsuccessfully, lifecycleSteps } from './lifecycle';

/** A cross where Mantine would tick a completed step: the job did not succeed. */
function FailureMark() {
  return <CloseIcon size="60%" role="img" aria-label="unsuccessful" data-mark="failure" />;
}

/** Submitted → (Pending) → Runnable → Starting → Running → how it ended. */
export function LifecycleStepper({ job }: { job: JobRecord }) {
  const steps = lifecycleSteps(job);
  const ended = isFinalState(job.state);
  const unsuccessful = endedUnsuccessfully(job.state);
  return (
    <Paper withBorder p="md">
      <Stepper active={activeStep(job, steps)} size="sm" allowNextStepsSelect={false}>
        {steps.map((step) => {
          if (step.state !== 'finished' || !ended)
            return <Stepper.Step key={step.state} label={step.label} />;
          return (
            <Stepper.Step
              key={step.state}
              label={job.state}
              color={stateColor(job.state)}
              completedIcon={unsuccessful ? <FailureMark /> : undefined}
              aria-label={`Ended: ${job.state}${unsuccessful ? ', unsuccessful' : ''}`}
              data-testid="lifecycle-outcome"
            />
          );
        })}
      </Stepper>
    </Paper>
  );
}
