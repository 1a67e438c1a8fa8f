import { cancelEffect, type SubmitJobRequest } from '../../contract';
import type { Catalog } from './catalog';
import type { Dispatcher } from './dispatcher';
import { conflict, invalid, notFound } from './errors';
import type { ContainerLogs, Job, JobListFilter, Transition } from './model';
import { notes } from './notes';
import type { JobStore, SecretBox } from './ports';
import type { Runner } from './runner';
import type { JobStateMachine } from './state-machine';
import { planJob } from './submission';

/** The three operations of the spec (and the read-only extensions), for one project at a time. */
export class JobService {
  constructor(
    private readonly store: JobStore,
    private readonly machine: JobStateMachine,
    private readonly catalog: Catalog,
    private readonly dispatcher: Dispatcher,
    private readonly runner: Runner,
    private readonly secrets: SecretBox,
  ) {}

  async submit(project: string, payload: SubmitJobRequest): Promise<string> {
    const job = planJob(payload, project, this.catalog, this.secrets, Date.now());
    const fingerprint = this.catalog.definition(job.definition)?.fingerprint ?? '';
    const result = await this.store.insertJob(job, fingerprint);
    if (!result.inserted) {
      throw invalid(
        `name: "${job.name}" is already held by job ${result.nameHeldBy} in queue ${job.queue}, which has not finished`,
      );
    }
    this.dispatcher.kick();
    return job.id;
  }

  async detail(project: string, id: string): Promise<Job> {
    return this.describe(await this.visibleJob(project, id));
  }

  async list(filter: JobListFilter): Promise<Job[]> {
    const jobs = await this.store.listJobs(filter);
    const counts = jobs.some((j) => j.state === 'runnable')
      ? await this.store.activeCountsByQueue()
      : undefined;
    return Promise.all(jobs.map((job) => this.describe(job, counts)));
  }

  async transitions(project: string, id: string): Promise<Transition[]> {
    await this.visibleJob(project, id);
    return this.store.transitions(id);
  }

  async logs(project: string, id: string): Promise<ContainerLogs> {
    await this.visibleJob(project, id);
    return (await this.store.getLogs(id)) ?? { text: '', truncated: false };
  }

  /**
   * Waiting jobs are cancelled at once; starting and running ones go through `cancelling`
   * while the container is stopped; a retried cancel is a no-op; a finished job is a conflict.
   */
  async cancel(project: string, id: string): Promise<void> {
    // A lost compare-and-set means the job moved meanwhile: decide again on its new state.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const job = await this.visibleJob(project, id);
      const effect = cancelEffect(job.state);
      if (effect === 'already-cancelling') return;
      if (effect === 'cancel-now') {
        const now = Date.now();
        const moved = await this.machine.move(job, 'cancelled', notes.cancelledBeforeStart, {
          cancelRequestedAt: now,
          finishedAt: now,
        });
        if (moved) return;
      } else if (effect === 'stop-container') {
        const moved = await this.machine.move(
          job,
          'cancelling',
          notes.cancelling(job.stopGraceSeconds),
          {
            cancelRequestedAt: Date.now(),
          },
        );
        if (moved) {
          // Answer at once: the stop can take the whole grace period.
          void this.runner.requestStop(moved);
          return;
        }
      } else {
        throw conflict(`job_id: job ${id} is ${job.state}; a ${job.state} job cannot be cancelled`);
      }
    }
    throw conflict(`job_id: job ${id} kept changing state; try the cancel again`);
  }

  /** Another project's job is reported exactly like a missing one: no existence leak. */
  private async visibleJob(project: string, id: string): Promise<Job> {
    const job = await this.store.getJob(id);
    if (!job || job.project !== project) throw notFound(id);
    return job;
  }

  private async describe(job: Job, counts?: Map<string, number>): Promise<Job> {
    if (job.state !== 'runnable') return job;
    return { ...job, systemNote: await this.dispatcher.waitingNote(job, counts) };
  }
}
