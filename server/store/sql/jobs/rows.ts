import type { Selectable } from 'kysely';
import type { JobState, Labels, RetryStrategy } from '../../../../contract';
import {
  DEFAULT_RUN_OPTIONS,
  childRole,
  parentRole,
  type ArrayLinks,
  type ArrayRole,
  type Job,
  type JobDependency,
  type NewJob,
  type RunOptions,
  type StoredEnvVar,
  type Transition,
} from '../../../jobs/model';
import type { Resources } from '../../../jobs/placement';
import type { JobTransitionsTable, JobsTable } from '../../schema';
import type { NewJobRow } from '../hot-queries';

/** A job and its transitions as rows and back: the one mapping every job module shares. */
export function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: row.id,
    seq: row.seq,
    project: row.project,
    queue: row.queue,
    definition: row.definition,
    name: row.name,
    state: row.state as JobState,
    systemNote: row.system_note,
    scheduleAt: row.schedule_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    image: row.image,
    retry: row.retry_json === null ? null : (JSON.parse(row.retry_json) as RetryStrategy),
    command: JSON.parse(row.command_json) as string[],
    env: JSON.parse(row.env_json) as StoredEnvVar[],
    timeoutSeconds: row.timeout_seconds,
    stopGraceSeconds: row.stop_grace_seconds,
    cpus: row.cpus,
    memoryBytes: row.memory_bytes,
    resources: resourcesOfRow(row),
    network: row.network,
    runOptions: row.run_options_json
      ? (JSON.parse(row.run_options_json) as RunOptions)
      : DEFAULT_RUN_OPTIONS,
    containerId: row.container_id,
    exitCode: row.exit_code,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    cancelRequestedAt: row.cancel_requested_at,
    cancelRequestedBy: row.cancel_requested_by,
    submittedBy: row.submitted_by,
    owner: row.owner,
    ownerEpoch: row.owner_epoch,
    node: row.node,
    host: row.host,
    placementNote: row.placement_note,
    attempt: row.attempt,
    notBefore: row.not_before,
    preemption:
      row.preempt_requested_at === null
        ? null
        : { at: row.preempt_requested_at, reason: row.preempt_reason ?? '' },
    preemptions: row.preemptions,
    dependsOn: row.depends_json === null ? [] : (JSON.parse(row.depends_json) as JobDependency[]),
    array: arrayRole(row),
    labels: row.labels_json === null ? {} : (JSON.parse(row.labels_json) as Labels),
  };
}

function resourcesOfRow(row: Selectable<JobsTable>): Resources | null {
  if (row.req_cpus === null || row.req_memory_bytes === null) return null;
  return { cpus: row.req_cpus, memoryBytes: row.req_memory_bytes, gpus: row.req_gpus ?? 0 };
}

function arrayRole(row: Selectable<JobsTable>): ArrayRole | null {
  if (row.array_size !== null) {
    return {
      size: row.array_size,
      ...(row.array_links_json !== null && {
        links: JSON.parse(row.array_links_json) as ArrayLinks,
      }),
      ...(row.array_indexes_json !== null && {
        indexes: JSON.parse(row.array_indexes_json) as number[],
      }),
    };
  }
  if (row.array_parent !== null && row.array_index !== null) {
    return { parentId: row.array_parent, index: row.array_index };
  }
  return null;
}

export function toTransition(
  row: Pick<Selectable<JobTransitionsTable>, 'from_state' | 'to_state' | 'at' | 'note'>,
): Transition {
  return {
    from: row.from_state as JobState | null,
    to: row.to_state as JobState,
    at: row.at,
    note: row.note,
  };
}

/**
 * A child's command, environment, retry strategy and run options are its parent's: not stored.
 * Nor are its labels: the list, which filters by them, shows the parent.
 */
const PLAN_OF_PARENT = {
  command_json: '[]',
  env_json: '[]',
  retry_json: null,
  run_options_json: null,
  labels_json: null,
};

export function newJobRow(job: NewJob, state: JobState, systemNote: string | null): NewJobRow {
  const child = childRole(job);
  const parent = parentRole(job);
  const row: NewJobRow = {
    id: job.id,
    project: job.project,
    queue: job.queue,
    definition: job.definition,
    name: job.name,
    state,
    system_note: systemNote,
    schedule_at: job.scheduleAt,
    created_at: job.createdAt,
    updated_at: job.createdAt,
    image: job.image,
    command_json: JSON.stringify(job.command),
    env_json: JSON.stringify(job.env),
    timeout_seconds: job.timeoutSeconds,
    stop_grace_seconds: job.stopGraceSeconds,
    cpus: job.cpus,
    memory_bytes: job.memoryBytes,
    req_cpus: job.resources?.cpus ?? null,
    req_memory_bytes: job.resources?.memoryBytes ?? null,
    req_gpus: job.resources?.gpus ?? null,
    network: job.network,
    run_options_json: JSON.stringify(job.runOptions),
    retry_json: job.retry === null ? null : JSON.stringify(job.retry),
    depends_json: job.dependsOn.length === 0 ? null : JSON.stringify(job.dependsOn),
    array_size: parent?.size ?? null,
    array_links_json: parent?.links ? JSON.stringify(parent.links) : null,
    array_indexes_json: parent?.indexes ? JSON.stringify(parent.indexes) : null,
    array_parent: child?.parentId ?? null,
    array_index: child?.index ?? null,
    labels_json: Object.keys(job.labels).length === 0 ? null : JSON.stringify(job.labels),
    submitted_by: job.submittedBy,
  };
  return child ? { ...row, ...PLAN_OF_PARENT } : row;
}

/**
 * The job as stored, from what was written. Field by field, in toJob's order: `{ ...job, seq, … }`
 * left kilobytes of garbage a job, most of it kept past two scavenges: half of Job Submit's
 * young-generation pauses (--trace-gc-nvp; docs/benchmarks.md).
 */
export function storedJob(job: NewJob, row: NewJobRow, seq: number): Job {
  return {
    id: job.id,
    seq,
    project: job.project,
    queue: job.queue,
    definition: job.definition,
    name: job.name,
    state: row.state as JobState,
    systemNote: row.system_note,
    scheduleAt: job.scheduleAt,
    createdAt: job.createdAt,
    updatedAt: job.createdAt,
    image: job.image,
    retry: job.retry,
    command: job.command,
    env: job.env,
    timeoutSeconds: job.timeoutSeconds,
    stopGraceSeconds: job.stopGraceSeconds,
    cpus: job.cpus,
    memoryBytes: job.memoryBytes,
    resources: job.resources,
    network: job.network,
    runOptions: job.runOptions,
    containerId: null,
    exitCode: null,
    startedAt: null,
    finishedAt: null,
    cancelRequestedAt: null,
    cancelRequestedBy: null,
    submittedBy: job.submittedBy,
    owner: null,
    ownerEpoch: 0,
    node: null,
    host: null,
    placementNote: null,
    attempt: 1,
    notBefore: null,
    preemption: null,
    preemptions: 0,
    dependsOn: job.dependsOn,
    array: job.array,
    labels: job.labels,
  };
}
