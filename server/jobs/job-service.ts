import { failpoint } from '../failpoints';
import { SLOT_STATES, cancelEffect, type SubmitJobRequest } from '../../contract';
import type { Catalog } from './catalog';
import type { Dispatcher } from './dispatcher';
import type { EngineHealth } from './engine-health';
import { conflict, invalid, notFound } from './errors';
import type { ContainerLogs, Job, JobListFilter, Transition } from './model';
import { notes } from './notes';
import type { JobStore, SecretBox } from './ports';
import type { Runner } from './runner';
import { ContendedError, type JobStateMachine } from './state-machine';
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
    private readonly health: EngineHealth,
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
    failpoint('after-insert');
    this.dispatcher.wakeAll();
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
    let moved: Job | undefined;
    try {
      moved = await this.machine.decideAndMove(id, (job) => {
        if (job.project !== project) throw notFound(id);
        const now = Date.now();
        switch (cancelEffect(job.state)) {
          case 'already-cancelling':
            return undefined;
          case 'cancel-now':
            return {
              to: 'cancelled',
              note: notes.cancelledBeforeStart,
              fields: { cancelRequestedAt: now, finishedAt: now },
            };
          case 'stop-container':
            return {
              to: 'cancelling',
              note: notes.cancelling(job.stopGraceSeconds),
              fields: { cancelRequestedAt: now },
            };
          case 'refused':
            throw conflict(
              `job_id: job ${id} is ${job.state}; a ${job.state} job cannot be cancelled`,
            );
        }
      });
    } catch (error) {
      if (error instanceof ContendedError) {
        throw conflict(`job_id: job ${id} kept changing state; try the cancel again`);
      }
      throw error;
    }
    if (moved === undefined)
      await this.visibleJob(project, id); // no such job is a 404
    // Answer at once: the stop can take the whole grace period.
    else if (moved.state === 'cancelling') this.runner.nudge(id);
  }

  /** Another project's job is reported exactly like a missing one: no existence leak. */
  private async visibleJob(project: string, id: string): Promise<Job> {
    const job = await this.store.getJob(id);
    if (!job || job.project !== project) throw notFound(id);
    return job;
  }

  /** Notes that depend on now: what a runnable job waits for, an engine that does not answer. */
  private async describe(job: Job, counts?: Map<string, number>): Promise<Job> {
    if (job.state === 'runnable') {
      return { ...job, systemNote: await this.dispatcher.waitingNote(job, counts) };
    }
    const since = this.health.unreachableSince;
    if (since !== null && SLOT_STATES.includes(job.state)) {
      return { ...job, systemNote: notes.engineAwayWhileActive(since) };
    }
    return job;
  }
}
