import {
  FINAL_STATES,
  JOB_STATES,
  dependencyStatus,
  type ArrayAnswer,
  type ArrayChild,
  type Attempt,
  type AttemptsAnswer,
  type DefinitionSizing,
  type DefinitionSummary,
  type DependenciesAnswer,
  type DependencyEdge,
  type EngineHealthStatus,
  type JobExecution,
  type JobListItem,
  type JobLogs,
  type JobRecord,
  type JobState,
  type JobTransition,
  type QueueSummary,
  type ResourcesRecord,
  type Schedule,
} from '../../contract';
import type { DefinitionSettings } from '../jobs/catalog';
import type { EngineStatus } from '../jobs/engine-health';
import type { Execution, JobArray, JobDependencies, QueueOverview } from '../jobs/read-model';
import type { FollowedLogs } from '../jobs/job-logs';
import { toAttemptUsage } from './usage-presenter';
import type { ScheduleView } from '../jobs/scheduler';
import { millisIsoOf } from '../jobs/log-instant';
import type { Resources } from '../jobs/placement';
import type { SizingHint } from '../jobs/sizing';
import {
  childRole,
  parentRole,
  type AttemptRecord,
  type AttemptUsage,
  type Dependent,
  type Job,
  type Transition,
} from '../jobs/model';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function toEngineHealth(status: EngineStatus): EngineHealthStatus {
  return {
    reachable: status.reachable,
    unreachable_since: isoOrNull(status.unreachableSince),
    dispatch: status.dispatchPaused ? 'paused' : 'running',
  };
}

/** Exactly the spec's seven fields: nothing of the command or environment leaves the service. */
export const toResources = (r: Resources): ResourcesRecord => ({
  cpus: r.cpus,
  memory_bytes: r.memoryBytes,
  gpus: r.gpus,
});

export function toJobRecord(job: Job): JobRecord {
  return {
    id: job.id,
    name: job.name,
    state: job.state,
    system_note: job.systemNote,
    schedule_at: isoOrNull(job.scheduleAt),
    created_at: iso(job.createdAt),
    updated_at: isoOrNull(job.updatedAt),
  };
}

export function toJobListItem(job: Job): JobListItem {
  return {
    ...toJobRecord(job),
    job_queue: job.queue,
    job_definition: job.definition,
    started_at: isoOrNull(job.startedAt),
    finished_at: isoOrNull(job.finishedAt),
    exit_code: job.exitCode,
    ...(hasLabels(job) && { labels: job.labels }),
  };
}

const hasLabels = (job: Job) => Object.keys(job.labels).length > 0;

export function toTransition(t: Transition): JobTransition {
  return { from: t.from, to: t.to, at: iso(t.at), note: t.note };
}

export function toJobLogs(logs: FollowedLogs): JobLogs {
  return {
    text: logs.text ?? logs.lines.map((line) => line.text).join(''),
    truncated: logs.truncated,
    lines: logs.lines.map((line) => ({
      stream: line.stream,
      at: millisIsoOf(line.at),
      text: line.text.endsWith('\n') ? line.text.slice(0, -1) : line.text,
    })),
    next_since: logs.next,
    ...(logs.truncated && logs.sizes && keptOf(logs.sizes)),
  };
}

/** What was kept of an ended job's output, of what it printed. */
function keptOf({ kept, printed }: NonNullable<FollowedLogs['sizes']>) {
  return {
    kept_lines: kept.lines,
    total_lines: printed.lines,
    kept_bytes: kept.bytes,
    total_bytes: printed.bytes,
  };
}

/** Sensitive values never leave: a sealed variable shows its name only. */
export function toJobExecution({
  job,
  cpus,
  memoryBytes,
  engine,
  startEstimate,
  usage,
}: Execution): JobExecution {
  const end = job.finishedAt ?? Date.now();
  return {
    job_definition: job.definition,
    job_queue: job.queue,
    image: job.image,
    command: job.command,
    env: job.env.map((v) =>
      'sealed' in v
        ? { name: v.name, sensitive: true, value: null }
        : { name: v.name, sensitive: false, value: v.value },
    ),
    limits: { cpus, memory_bytes: memoryBytes, timeout_seconds: job.timeoutSeconds },
    exit_code: job.exitCode,
    started_at: isoOrNull(job.startedAt),
    finished_at: isoOrNull(job.finishedAt),
    duration_ms: job.startedAt === null ? null : Math.max(0, end - job.startedAt),
    engine,
    instance: job.owner,
    node: job.node,
    ...(job.resources && { resources: toResources(job.resources) }),
    host: job.host,
    ...(job.retry && { attempt: job.attempt, attempts_max: attemptsMaxOf(job) }),
    ...(usage && { usage: toAttemptUsage(usage, job) }),
    labels: job.labels,
    submitted_by: job.submittedBy,
    cancel_requested_by: job.cancelRequestedBy,
    cancel_requested_at: isoOrNull(job.cancelRequestedAt),
    start_estimate: startEstimate
      ? {
          in_ms: startEstimate.inMs,
          place: startEstimate.place,
          slots: startEstimate.slots,
          run_p50_ms: startEstimate.runP50Ms,
          runs: startEstimate.runs,
        }
      : null,
  };
}

/** The attempts it may take in all: its strategy's, and one more for each preempted one. */
const attemptsMaxOf = (job: Job) => (job.retry?.attempts ?? 1) + job.preemptions;

export function toAttempts(
  job: Job,
  items: AttemptRecord[],
  usage: AttemptUsage[],
): AttemptsAnswer {
  const waiting = job.state === 'runnable' && job.notBefore !== null;
  return {
    attempt: job.attempt,
    attempts_max: attemptsMaxOf(job),
    retry: job.retry,
    next_attempt_at: waiting ? iso(job.notBefore!) : null,
    items: items.map((record) =>
      toAttempt(
        record,
        usage.find((used) => used.attempt === record.attempt),
      ),
    ),
  };
}

function toAttempt(record: AttemptRecord, usage: AttemptUsage | undefined): Attempt {
  return {
    attempt: record.attempt,
    state: record.state,
    exit_code: record.exitCode,
    reason: record.reason,
    note: record.note,
    node: record.node,
    started_at: isoOrNull(record.startedAt),
    finished_at: iso(record.finishedAt),
    retried: record.retried,
    memory_bytes: record.memoryBytes,
    ...(usage && { usage: toAttemptUsage(usage, record) }),
  };
}

export function toDependencies(found: JobDependencies): DependenciesAnswer {
  return {
    depends_on: found.dependsOn.map((d) => toEdge(d, d.state)),
    // A dependent's status is that of its dependency on this job: judged by this job's state.
    dependents: found.dependents.map((d) => toEdge(d, found.job.state)),
    dependents_total: found.dependentsTotal,
  };
}

const toEdge = (job: Dependent, judgedBy: JobState): DependencyEdge => ({
  job_id: job.id,
  name: job.name,
  type: job.type,
  state: job.state,
  status: dependencyStatus(job.type, judgedBy),
});

export function toArray({ job, counts, children }: JobArray): ArrayAnswer {
  const asParent = parentRole(job);
  const asChild = childRole(job);
  const last = children.items.at(-1)?.array;
  return {
    size: asParent?.size ?? null,
    ...(asParent?.indexes && { indexes: [...asParent.indexes] }),
    parent_id: asChild?.parentId ?? null,
    index: asChild?.index ?? null,
    counts: Object.fromEntries(counts),
    items: children.items.map(toArrayChild),
    next_cursor: children.more && last && 'index' in last ? String(last.index) : null,
  };
}

function toArrayChild(job: Job): ArrayChild {
  return {
    id: job.id,
    index: job.array && 'index' in job.array ? job.array.index : 0,
    name: job.name,
    state: job.state,
    system_note: job.systemNote,
    exit_code: job.exitCode,
    started_at: isoOrNull(job.startedAt),
    finished_at: isoOrNull(job.finishedAt),
  };
}

export function toSchedule({ settings, state, next, recent }: ScheduleView): Schedule {
  return {
    name: settings.name,
    job_definition: settings.definition,
    job_queue: settings.queue,
    cron: settings.cron,
    timezone: settings.timezone,
    overlap: settings.overlap,
    missed: settings.missed,
    paused: state.paused,
    paused_reason: state.pausedReason,
    labels: settings.labels,
    next_firings: next.map((at) => at.toISOString()),
    recent: recent.map((firing) => ({
      fire_at: iso(firing.fireAt),
      job_id: firing.job?.id ?? null,
      job_name: firing.job?.name ?? null,
      state: firing.job?.state ?? null,
      note: firing.note,
    })),
  };
}

const UNFINISHED = JOB_STATES.filter((s) => !FINAL_STATES.includes(s));

const jobRef = (job: Job | undefined, since: number | null) =>
  job
    ? { id: job.id, name: job.name, since: new Date(since ?? job.createdAt).toISOString() }
    : null;

/** When a waiting job could first have started: submitted, its schedule_at, or its backoff's end. */
const eligibleSince = (job: Job) =>
  Math.max(job.createdAt, job.scheduleAt ?? 0, job.notBefore ?? 0);

export function toQueueSummary({
  queue,
  counts,
  oldestWaiting,
  longestRunning,
}: QueueOverview): QueueSummary {
  const count = (state: JobState, recent: boolean) => {
    const found = counts.find((c) => c.state === state);
    return (recent ? found?.recent : found?.count) ?? 0;
  };
  const keepFinished = queue.settings.keepFinishedMs;
  const finals = (recent: boolean) =>
    Object.fromEntries(FINAL_STATES.map((s) => [s, count(s, recent)])) as QueueSummary['last_day'];
  return {
    queue: queue.settings.ref,
    max_running: queue.maxRunning,
    priority: queue.settings.priority,
    paused: queue.paused,
    paused_reason: queue.pausedReason,
    configured_max_running: queue.settings.maxRunning,
    max_running_ceiling: queue.settings.maxRunningCeiling,
    retention_seconds: keepFinished === null ? null : keepFinished / 1000,
    changed: queue.changed && { at: iso(queue.changed.at), by: queue.changed.by },
    now: Object.fromEntries(UNFINISHED.map((s) => [s, count(s, false)])) as QueueSummary['now'],
    last_hour: finals(true),
    last_day: finals(false),
    oldest_waiting: jobRef(oldestWaiting, oldestWaiting ? eligibleSince(oldestWaiting) : null),
    longest_running: jobRef(longestRunning, longestRunning?.startedAt ?? null),
  };
}

export function toDefinitionSizing(ref: string, hint: SizingHint): DefinitionSizing {
  return {
    job_definition: ref,
    runs: hint.runs,
    enough_runs: hint.memory !== null,
    asked: { memory_bytes: hint.asked.memoryBytes, cpus: hint.asked.cpus },
    memory: hint.memory && {
      p95_peak_bytes: hint.memory.p95PeakBytes,
      max_peak_bytes: hint.memory.maxPeakBytes,
      efficiency: hint.memory.efficiency,
    },
    cpu: hint.cpu,
    summary: hint.summary,
  };
}

export function toDefinitionSummary(definition: DefinitionSettings): DefinitionSummary {
  return {
    job_definition: definition.ref,
    name: definition.name,
    version: definition.version,
    image: definition.image,
    command: definition.command,
    parameters: definition.parameters,
    env_names: Object.keys(definition.env),
    timeout_seconds: definition.timeoutSeconds,
    stop_grace_seconds: definition.stopGraceSeconds,
    cpus: definition.cpus,
    memory_bytes: definition.memoryBytes,
    network: definition.network,
    ...(definition.retry && { retry: definition.retry }),
    ...(definition.resources.declared && {
      resources: {
        ...toResources(definition.resources.request),
        max: toResources(definition.resources.max),
      },
    }),
  };
}
