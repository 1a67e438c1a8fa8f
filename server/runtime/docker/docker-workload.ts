import type Docker from 'dockerode';
import type { Workload, WorkloadSpec } from '../../jobs/ports';
import { JOB_LABEL, attemptOf } from '../job-container';

// A container, as the engine describes it, in the engine port's words.

function timeOf(value: string | undefined): number | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : null; // Docker says 0001-01-01 for "never"
}

export function workloadOf(info: Docker.ContainerInspectInfo): Workload {
  const state = info.State;
  const status =
    state.Running || state.Paused || state.Restarting
      ? 'running'
      : state.Status === 'created'
        ? 'created'
        : 'exited';
  return {
    id: info.Id,
    jobId: info.Config.Labels[JOB_LABEL] ?? '',
    status,
    exitCode: status === 'exited' ? state.ExitCode : null,
    startedAt: timeOf(state.StartedAt),
    finishedAt: status === 'exited' ? timeOf(state.FinishedAt) : null,
    node: null,
    message: state.Error || null,
    ...(state.OOMKilled && { cause: 'oom_killed' as const }),
    attempt: attemptOf(info.Config.Labels),
  };
}

/** A container this call has just made: nothing about it to ask the engine yet. */
export const createdWorkload = (id: string, { jobId, attempt }: WorkloadSpec): Workload => ({
  id,
  jobId,
  attempt,
  status: 'created',
  exitCode: null,
  startedAt: null,
  finishedAt: null,
  node: null,
  message: null,
});
