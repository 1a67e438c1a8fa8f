import { FAILURE_LIMITS, UNSUCCESSFUL_STATES, type JobState } from '../../contract';
import type { JobFilter } from './list-filter';
import { isArrayParent, type ContainerLogs, type Job } from './model';
import type { JobStore } from './ports';

/** Kept outputs read at once: each is a read and an unpacking of up to a job's output budget. */
const READS_AT_ONCE = 8;

export interface FailureGroupOf {
  state: JobState;
  exitCode: number | null;
  cause: string | null;
  causeFrom: 'output' | 'note';
  /** Newest first. */
  jobs: Job[];
}

export interface FailureGroupsOf {
  examined: number;
  more: boolean;
  /** Largest first; of one size, the one that failed last first. */
  groups: FailureGroupOf[];
}

/**
 * The newest unsuccessful jobs a filter matches (FAILURE_LIMITS.examined of them), grouped by
 * state, exit code and cause: a failed job's last line of output (stderr's when it printed
 * any), or the system note of a timeout or error, whose output says nothing of why.
 */
export async function failureGroups(store: JobStore, filter: JobFilter): Promise<FailureGroupsOf> {
  const states = UNSUCCESSFUL_STATES.filter((s) => !filter.states || filter.states.includes(s));
  if (states.length === 0) return { examined: 0, more: false, groups: [] };
  const found = await store.listJobs({ ...filter, states, limit: FAILURE_LIMITS.examined + 1 });
  const jobs = found.slice(0, FAILURE_LIMITS.examined);
  const causes: { cause: string | null; causeFrom: 'output' | 'note' }[] = [];
  for (let i = 0; i < jobs.length; i += READS_AT_ONCE) {
    causes.push(
      ...(await Promise.all(jobs.slice(i, i + READS_AT_ONCE).map((j) => causeOf(store, j)))),
    );
  }
  const groups = new Map<string, FailureGroupOf>();
  jobs.forEach((job, index) => {
    const { cause, causeFrom } = causes[index]!;
    const key = JSON.stringify([job.state, job.exitCode, causeFrom, cause]);
    const group = groups.get(key);
    if (group) group.jobs.push(job);
    else
      groups.set(key, { state: job.state, exitCode: job.exitCode, cause, causeFrom, jobs: [job] });
  });
  // Stable: groups of one size keep the order of their newest job.
  const sorted = [...groups.values()].sort((a, b) => b.jobs.length - a.jobs.length);
  return { examined: jobs.length, more: found.length > jobs.length, groups: sorted };
}

async function causeOf(store: JobStore, job: Job) {
  if (job.state !== 'failed' || isArrayParent(job)) {
    return { cause: cut(job.systemNote), causeFrom: 'note' as const };
  }
  const logs = await store.getLogs(job.id);
  return { cause: cut(logs ? lastLineOf(logs) : null), causeFrom: 'output' as const };
}

/** The last line that says something: stderr's if the job printed any there. */
function lastLineOf(logs: ContainerLogs): string | null {
  const said = (text: string) => text.trim() !== '';
  if (logs.text !== undefined) return logs.text.split('\n').findLast(said) ?? null;
  const line =
    logs.lines.findLast((l) => l.stream === 'stderr' && said(l.text)) ??
    logs.lines.findLast((l) => said(l.text));
  return line?.text ?? null;
}

const cut = (text: string | null) =>
  text === null ? null : text.trim().slice(0, FAILURE_LIMITS.causeMaxLength);
