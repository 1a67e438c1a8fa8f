import {
  DEPENDENCY_TYPE_WORDS,
  dependencyStatus,
  isFinalState,
  type DependencyStatus,
  type JobState,
} from '../../contract';
import { childRole, isArrayParent, type Job, type JobDependency, type JobSummary } from './model';
import { notes } from './notes';
import type { JobStore } from './ports';
import { admissionOf, type JobStateMachine } from './state-machine';

/** What a job that waits for others does now. */
export type DependencyVerdict =
  | { kind: 'met' }
  | { kind: 'waiting'; note: string }
  /** `index`: the first dependency that cannot be met; `refusal`: why, for a submit's 400. */
  | { kind: 'unmeetable'; note: string; index: number; refusal: string };

/** One dependency with the job it names as it is now (undefined: not stored, or not visible). */
interface Judged {
  dependency: JobDependency;
  other: JobSummary | undefined;
  status: DependencyStatus;
}

// The ids of a check's jobs go into one IN (…) a chunk: far below any driver's parameter limit.
const IDS_PER_READ = 500;

/**
 * A job's dependencies judged against the jobs they name: `others` holds what the store has of
 * them, `ends` the ends recorded on the job's dependencies (what a job deleted since ended as);
 * a job of another project counts as missing, as it does at submit.
 */
export function judgeDependencies(
  job: Pick<Job, 'project' | 'dependsOn'>,
  others: ReadonlyMap<string, JobSummary>,
  ends: ReadonlyMap<string, JobState> = new Map(),
): DependencyVerdict {
  const judged: Judged[] = job.dependsOn.map((dependency) => {
    const ended = ends.get(dependency.jobId);
    const found =
      others.get(dependency.jobId) ??
      // The edge was stored for a job of this project (the submit checked it).
      (ended && { id: dependency.jobId, project: job.project, name: '', state: ended });
    const other = found?.project === job.project ? found : undefined;
    const status = other ? dependencyStatus(dependency.type, other.state) : 'unmeetable';
    return { dependency, other, status };
  });
  const index = judged.findIndex((j) => j.status === 'unmeetable');
  if (index >= 0) {
    const { dependency, other } = judged[index]!;
    const { jobId, type } = dependency;
    return other
      ? {
          kind: 'unmeetable',
          index,
          note: notes.dependencyUnmeetable(describe(other), other.state, type),
          refusal: `job ${describe(other)} ended ${other.state}, so a job waiting for it ${DEPENDENCY_TYPE_WORDS[type]} (${type}) could never start`,
        }
      : {
          kind: 'unmeetable',
          index,
          note: notes.dependencyGone(jobId),
          refusal: `no job ${jobId} in this project`,
        };
  }
  const waiting = judged.filter((j) => j.status === 'waiting');
  if (waiting.length === 0) return { kind: 'met' };
  return {
    kind: 'waiting',
    note: notes.waitingForDependencies(
      waiting.map(({ dependency, other }) => ({
        job: describe(other!),
        needs: DEPENDENCY_TYPE_WORDS[dependency.type],
        state: other!.state,
      })),
      judged.length,
    ),
  };
}

/** A deleted job's name is not kept: its id alone says which it was. */
const describe = (job: JobSummary) => (job.name === '' ? job.id : `${job.name} (${job.id})`);

/** The final states among `others`, by id: what a submit's check read of the jobs that ended. */
export function endsAmong(others: ReadonlyMap<string, JobSummary>): Map<string, JobState> {
  return new Map(
    [...others.values()].flatMap(({ id, state }) => (isFinalState(state) ? [[id, state]] : [])),
  );
}

/** The jobs named by `jobs`' dependencies, read from the store a chunk of ids at a time. */
export async function dependencyTargets(
  store: Pick<JobStore, 'jobSummaries'>,
  jobs: readonly Pick<Job, 'dependsOn'>[],
): Promise<Map<string, JobSummary>> {
  const ids = [...new Set(jobs.flatMap((job) => job.dependsOn.map((d) => d.jobId)))];
  const found = new Map<string, JobSummary>();
  for (let i = 0; i < ids.length; i += IDS_PER_READ) {
    for (const summary of await store.jobSummaries(ids.slice(i, i + IDS_PER_READ))) {
      found.set(summary.id, summary);
    }
  }
  return found;
}

/**
 * The ends recorded on the dependencies of those of `jobs` that name a job not in `others`
 * (deleted by retention since it ended), by waiting job, then by the job it names.
 */
async function recordedEnds(
  store: Pick<JobStore, 'dependencyEnds'>,
  jobs: readonly Pick<Job, 'id' | 'dependsOn'>[],
  others: ReadonlyMap<string, JobSummary>,
): Promise<Map<string, Map<string, JobState>>> {
  const missing = jobs
    .filter((job) => job.dependsOn.some((d) => !others.has(d.jobId)))
    .map((job) => job.id);
  const ends = new Map<string, Map<string, JobState>>();
  for (let i = 0; i < missing.length; i += IDS_PER_READ) {
    for (const end of await store.dependencyEnds(missing.slice(i, i + IDS_PER_READ))) {
      const byJob = ends.get(end.jobId) ?? new Map<string, JobState>();
      ends.set(end.jobId, byJob.set(end.dependsOn, end.state));
    }
  }
  return ends;
}

/**
 * Moves on the pending jobs that wait for others: to runnable once every dependency is met (or
 * to their schedule_at, when that is still ahead), to cancelled with a note once one can no
 * longer be met, and keeps the note of the rest saying what they wait for. Level-driven: it
 * judges what the store holds now, so a check missed (a crash, another instance's job) is made
 * up by the next, and two instances checking at once are settled by the moves' compare-and-set.
 */
export async function settleDependencies(
  store: Pick<JobStore, 'jobsAwaitingDependencies' | 'jobSummaries' | 'dependencyEnds' | 'setNote'>,
  machine: Pick<JobStateMachine, 'move'>,
): Promise<void> {
  const waiting = await store.jobsAwaitingDependencies();
  if (waiting.length === 0) return;
  const others = await dependencyTargets(store, waiting);
  const ends = await recordedEnds(store, waiting, others);
  // A child of an array starts no earlier than its parent is released, whatever else it waits for.
  const parentIds = waiting.flatMap((job) => childRole(job)?.parentId ?? []);
  const parents = await dependencyTargets(store, [
    { dependsOn: parentIds.map((jobId) => ({ jobId, type: 'afterany' })) },
  ]);
  for (const job of waiting) {
    const parentId = childRole(job)?.parentId ?? null;
    const verdict =
      parentId !== null && parents.get(parentId)?.state === 'pending'
        ? ({ kind: 'waiting', note: notes.waitingWithArray(parentId) } as const)
        : judgeDependencies(job, others, ends.get(job.id));
    const now = Date.now();
    if (verdict.kind === 'unmeetable') {
      // An array's parent is cancelling until its children are cancelled too (arrays.ts).
      await (isArrayParent(job)
        ? machine.move(job, 'cancelling', verdict.note, { cancelRequestedAt: now })
        : machine.move(job, 'cancelled', verdict.note, { finishedAt: now }));
      continue;
    }
    const next = verdict.kind === 'met' ? admissionOf(job, now) : { to: 'pending', ...verdict };
    if (next.to === 'runnable') await machine.move(job, 'runnable', null);
    else if (next.note !== job.systemNote)
      await store.setNote({ id: job.id, state: 'pending', note: next.note });
  }
}
