import { admitArray, type ArrayAdmissionParts } from './array-admission';
import { cancelMove } from './cancellation';
import { failpoint } from './failpoints';
import type { ResubmitJobRequest, SubmitJobRequest } from '../../contract';
import type { HostCapacity } from './capacity';
import type { Catalog } from './catalog';
import { dependencyTargets, endsAmong, judgeDependencies } from './dependencies';
import type { Dispatcher } from './dispatcher';
import { conflict, invalid, notFound } from './errors';
import { isArrayParent, type Admission, type Job, type NewJob } from './model';
import type { JobStore, SecretBox } from './ports';
import { visibleJob, type JobReadModel } from './read-model';
import type { Runner } from './runner';
import { admissionOf, ContendedError, type JobStateMachine } from './state-machine';
import { resubmissionOf } from './resubmission';
import { planJob } from './submission';
import { replayOf, requestDigest } from './idempotency';

const GENERATED_NAME_ATTEMPTS = 3;

/** What Job Submit answers: the job's id, and whether an earlier submit with its key made it. */
export interface Submitted {
  id: string;
  replayed: boolean;
}

const replayed = (id: string): Submitted => ({ id, replayed: true });

/**
 * The field of the depends_on entry naming `jobId`: job.dependsOn leaves out the array's links
 * (n_to_n, sequential), so its index is not always the payload's.
 */
function dependencyField(payload: SubmitJobRequest, jobId: string): string {
  const index = (payload.depends_on ?? []).findIndex((d) => d.job_id?.toLowerCase() === jobId);
  return `depends_on[${index}].job_id`;
}

/** What a JobService works with. */
export interface JobServiceParts {
  store: JobStore;
  machine: JobStateMachine;
  catalog: Catalog;
  dispatcher: Dispatcher;
  runner: Runner;
  secrets: SecretBox;
  /** Job Detail's job is read there, as every other read. */
  reads: JobReadModel;
  /** How long an Idempotency-Key holds. */
  idempotencyWindowMs: number;
  /** A job bigger than every host of a fixed engine is refused at submit. */
  capacity: HostCapacity;
}

/**
 * The three operations of the spec (Job Submit, Job Detail, Job Cancel), for one project at a
 * time; the read-only extensions are the read model's (read-model.ts).
 */
export class JobService {
  private readonly store: JobStore;
  private readonly machine: JobStateMachine;
  private readonly catalog: Catalog;
  private readonly dispatcher: Dispatcher;
  private readonly runner: Runner;
  private readonly secrets: SecretBox;
  private readonly reads: JobReadModel;
  private readonly capacity: HostCapacity;
  private readonly arrayParts: ArrayAdmissionParts;
  private readonly idempotencyWindowMs: number;

  constructor(parts: JobServiceParts) {
    this.store = parts.store;
    this.machine = parts.machine;
    this.catalog = parts.catalog;
    this.dispatcher = parts.dispatcher;
    this.runner = parts.runner;
    this.secrets = parts.secrets;
    this.reads = parts.reads;
    this.capacity = parts.capacity;
    this.arrayParts = { store: parts.store, machine: parts.machine, dispatcher: parts.dispatcher };
    this.idempotencyWindowMs = parts.idempotencyWindowMs;
  }

  /**
   * `by`: the actor who submits, kept with the job. With an Idempotency-Key, a key that holds in
   * the project answers with the job it made (replayed, nothing stored) when the request is the
   * same, and is a conflict when it is not; a new key is stored with the new job.
   */
  async submit(
    project: string,
    payload: SubmitJobRequest,
    by: string,
    idempotencyKey?: string,
  ): Promise<Submitted> {
    const keyed = idempotencyKey !== undefined;
    if (keyed) {
      const held = await this.store.heldKey(project, idempotencyKey, Date.now());
      if (held) return replayed(replayOf(this.secrets, held, by, payload));
    }
    for (let attempt = 1; ; attempt += 1) {
      const now = Date.now();
      const plan = planJob(payload, project, this.catalog, this.secrets, now, by);
      const { job, definitionFingerprint } = plan;
      await this.capacity.refuseIfNeverFits(job, payload.resources);
      const idempotency = keyed
        ? {
            key: idempotencyKey,
            digest: requestDigest(this.secrets, by, payload),
            expiresAt: now + this.idempotencyWindowMs,
          }
        : undefined;
      const admission = await this.dependencyAdmission(job, payload);
      const result = isArrayParent(job)
        ? await admitArray(this.arrayParts, plan, admission, idempotency)
        : await this.machine.admit(job, definitionFingerprint, admission, idempotency);
      if (result.inserted) {
        failpoint('after-insert');
        this.dispatcher.admitted(result.job);
        return { id: job.id, replayed: false };
      }
      if ('dependencyGone' in result) {
        throw invalid(
          `${dependencyField(payload, result.dependencyGone)}: job ${result.dependencyGone} ended and was deleted (its retention ran out) while this job was being submitted; nothing was stored`,
        );
      }
      // Another submit with this key committed first (racing, or the one whose answer was lost).
      if ('keyHeldBy' in result) {
        if (result.keyHeldBy)
          return replayed(replayOf(this.secrets, result.keyHeldBy, by, payload));
        continue; // the row expired and was pruned between the two reads: store it again
      }
      // A generated name can meet an unfinished job's (one of the same millisecond, with the
      // same random digits): a new id makes a new name. A name the client chose is the client's
      // to change.
      if (payload.name === undefined && attempt < GENERATED_NAME_ATTEMPTS) continue;
      throw invalid(
        `name: "${job.name}" is already held by job ${result.nameHeldBy} in queue ${job.queue}, which has not finished`,
      );
    }
  }

  /**
   * A new job from what a finished one ran, its sensitive values copied in the service
   * (resubmission.ts). `extraLabels`: what a bulk resubmit marks its jobs with.
   */
  async resubmit(
    project: string,
    sourceId: string,
    changes: ResubmitJobRequest,
    by: string,
    extraLabels?: Record<string, string>,
  ): Promise<{ id: string; keptSecrets: string[] }> {
    const source = await visibleJob(this.store, project, sourceId);
    const { payload, keptSecrets } = resubmissionOf(source, changes, this.secrets, extraLabels);
    return { id: (await this.submit(project, payload, by)).id, keptSecrets };
  }

  /**
   * A job that waits for others is pending, its note saying for what; once they all ended as
   * asked, it is admitted like any job. A dependency on a job the caller cannot see, or on one
   * that already ended so that it can never be met, is refused at its field: nothing is stored.
   * The ends read here are stored with the dependencies: retention may delete a job that ended
   * before the insert, and what it ended as is kept with them (Admission.dependencyEnds).
   */
  private async dependencyAdmission(
    job: NewJob,
    payload: SubmitJobRequest,
  ): Promise<Admission | undefined> {
    if (job.dependsOn.length === 0) return undefined;
    const others = await dependencyTargets(this.store, [job]);
    const verdict = judgeDependencies(job, others);
    if (verdict.kind === 'unmeetable') {
      const { jobId } = job.dependsOn[verdict.index]!;
      throw invalid(`${dependencyField(payload, jobId)}: ${verdict.refusal}`);
    }
    const admission: Admission =
      verdict.kind === 'waiting'
        ? { to: 'pending', note: verdict.note }
        : admissionOf(job, job.createdAt);
    return { ...admission, dependencyEnds: endsAmong(others) };
  }

  detail(project: string, id: string): Promise<Job> {
    return this.reads.detail(project, id);
  }

  /**
   * Waiting jobs are cancelled at once; starting and running ones go through `cancelling`
   * while the container is stopped; a retried cancel is a no-op; a finished job is a conflict.
   * `by`: the actor who asks, kept with the job.
   */
  async cancel(project: string, id: string, by: string): Promise<void> {
    let moved: Job | undefined;
    try {
      moved = await this.machine.decideAndMove(id, (job) => {
        if (job.project !== project) throw notFound(id);
        return cancelMove(job, Date.now(), by);
      });
    } catch (error) {
      if (error instanceof ContendedError) {
        throw conflict(`job_id: job ${id} kept changing state; try the cancel again`);
      }
      throw error;
    }
    if (moved === undefined)
      await visibleJob(this.store, project, id); // no such job is a 404
    // Answer at once: the stop can take the whole grace period.
    // An array's parent has no container: arrays.ts hears of the move and cancels its children.
    else if (moved.state === 'cancelling' && !isArrayParent(moved)) this.runner.nudge(id);
  }
}
