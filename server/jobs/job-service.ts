import { ARRAY_CHUNK, childIds, childrenInChunks, followedChildIds, indexesUpTo } from './arrays';
import { cancelMove } from './cancellation';
import { failpoint } from './failpoints';
import type { SubmitJobRequest } from '../../contract';
import type { Catalog } from './catalog';
import { dependencyTargets, judgeDependencies } from './dependencies';
import type { Dispatcher } from './dispatcher';
import { conflict, invalid, notFound } from './errors';
import { isArrayParent, parentRole, type Admission, type Job, type NewJob } from './model';
import type { JobStore, SecretBox } from './ports';
import { visibleJob, type JobReadModel } from './read-model';
import type { Runner } from './runner';
import { ContendedError, admissionOf, type JobStateMachine } from './state-machine';
import { planJob } from './submission';

const GENERATED_NAME_ATTEMPTS = 3;

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

  constructor(parts: JobServiceParts) {
    this.store = parts.store;
    this.machine = parts.machine;
    this.catalog = parts.catalog;
    this.dispatcher = parts.dispatcher;
    this.runner = parts.runner;
    this.secrets = parts.secrets;
    this.reads = parts.reads;
  }

  /** `by`: the actor who submits, kept with the job. */
  async submit(project: string, payload: SubmitJobRequest, by: string): Promise<string> {
    for (let attempt = 1; ; attempt += 1) {
      const { job, definitionFingerprint } = planJob(
        payload,
        project,
        this.catalog,
        this.secrets,
        Date.now(),
        by,
      );
      const admission = await this.dependencyAdmission(job);
      const arrayOf = parentRole(job);
      const result = arrayOf
        ? await this.admitArray(job, arrayOf.size, definitionFingerprint, admission, payload)
        : await this.machine.admit(job, definitionFingerprint, admission);
      if (result.inserted) {
        failpoint('after-insert');
        this.dispatcher.admitted(result.job);
        return job.id;
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
   * The parent with its first children in one transaction, then the rest a chunk at a time,
   * letting other requests through in between: ten thousand rows in one go held every other
   * submit for the whole write (docs/benchmarks.md). What a crash leaves unstored, the settler
   * stores (ArraySettler).
   */
  private async admitArray(
    parent: NewJob,
    size: number,
    definitionFingerprint: string,
    dependencies: Admission | undefined,
    payload: SubmitJobRequest,
  ) {
    const admission = dependencies ?? admissionOf(parent, parent.createdAt);
    const followed = await this.followedArray(parent, size, payload);
    const ids = childIds(size, new Map(), followed);
    const chunks = childrenInChunks(parent, admission, indexesUpTo(size), ids, ARRAY_CHUNK);
    const first = chunks.next().value!;
    const result = await this.store.insertArray(parent, admission, first, definitionFingerprint);
    if (!result.inserted) return result;
    failpoint('after-array-first-chunk');
    // Heard of like an admitted job; `dispatcher.admitted` then claims its children in its queue.
    this.machine.announce(result.job, 'submitted');
    for (const chunk of chunks) {
      await new Promise((resolve) => setImmediate(resolve));
      await this.store.insertArrayChildren(chunk);
    }
    // Children that follow others are moved on by the dependency check of a full tick.
    if ('links' in parent.array!) this.dispatcher.kick();
    return result;
  }

  /**
   * The children of the array an n_to_n dependency names, by index: an array of this project,
   * of the same size, with its children stored. Refused at the field otherwise.
   */
  private async followedArray(parent: NewJob, size: number, payload: SubmitJobRequest) {
    const field = (payload.depends_on ?? []).findIndex((d) => d.type === 'n_to_n');
    if (field < 0) return null;
    const refuse = (reason: string) => invalid(`depends_on[${field}].job_id: ${reason}`);
    const id = payload.depends_on![field]!.job_id!.toLowerCase();
    const other = await this.store.getJob(id);
    if (!other || other.project !== parent.project) throw refuse(`no job ${id} in this project`);
    const arrayFollowed = parentRole(other);
    if (!arrayFollowed) {
      throw refuse(`job ${id} is not an array job, so n_to_n has no child to follow`);
    }
    if (arrayFollowed.size !== size) {
      throw refuse(
        `job ${id} has ${arrayFollowed.size} children and this array ${size}: n_to_n needs the same size`,
      );
    }
    const followed = await followedChildIds(this.store, parent);
    if (followed === null || followed.length < size) {
      throw refuse(`job ${id} is still storing its children; submit again in a moment`);
    }
    return followed;
  }

  /**
   * A job that waits for others is pending, its note saying for what; once they all ended as
   * asked, it is admitted like any job. A dependency on a job the caller cannot see, or on one
   * that already ended so that it can never be met, is refused at its field: nothing is stored.
   */
  private async dependencyAdmission(job: NewJob): Promise<Admission | undefined> {
    if (job.dependsOn.length === 0) return undefined;
    const verdict = judgeDependencies(job, await dependencyTargets(this.store, [job]));
    if (verdict.kind === 'unmeetable') {
      throw invalid(`depends_on[${verdict.index}].job_id: ${verdict.refusal}`);
    }
    return verdict.kind === 'waiting' ? { to: 'pending', note: verdict.note } : undefined;
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
