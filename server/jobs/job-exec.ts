import { conflict, JobRequestError } from './errors';
import type { ContainerRuntime, ExecRequest, ExecSession, JobStore } from './ports';
import { visibleJob } from './read-model';

/** How a session ended: its command exited by itself, or the job's container ended under it. */
export type ExecEnd = { kind: 'exited'; exitCode: number | null } | { kind: 'job-ended' };

/** A command running in a job's container. */
export interface JobExecSession {
  session: ExecSession;
  /** Resolves once the command exited or the job's container ended: the session is over. */
  ended: Promise<ExecEnd>;
}

const JOB_ENDED: ExecEnd = { kind: 'job-ended' };
// How soon a session notices that its job ended.
const CONTAINER_CHECK_MS = 1000;

/**
 * Runs commands in running jobs (a shell for a person, a one-off for a script): only in a job of
 * the project asked, only while it runs, and only on an engine that can.
 */
export class JobExec {
  constructor(
    private readonly store: JobStore,
    private readonly runtime: ContainerRuntime,
    /** The engine's kind, for the refusal of one that cannot. */
    private readonly engine: string,
  ) {}

  /** Whether the engine can run a command in a job at all (the local docker engine can). */
  get supported(): boolean {
    return this.runtime.exec !== undefined;
  }

  async open(project: string, jobId: string, request: ExecRequest): Promise<JobExecSession> {
    const exec = this.runtime.exec?.bind(this.runtime);
    if (!exec) {
      throw new JobRequestError(
        'unsupported',
        `engine: the ${this.engine} engine cannot run a command in a job; only the local docker engine can`,
      );
    }
    const job = await visibleJob(this.store, project, jobId);
    if (job.state !== 'running') {
      throw conflict(`job_id: job ${jobId} is ${job.state}; a command runs only in a running job`);
    }
    const workload = await this.runtime.inspect(jobId);
    if (workload?.status !== 'running') {
      throw conflict(`job_id: job ${jobId} has no running container (it is ending)`);
    }
    const session = await exec(workload, request);
    // A command killed with its job ends first: it did not exit, the job ended. A cancel moves
    // the job before it stops the container, which may still say it runs for a moment.
    const exited = session.exited.then(async (exitCode): Promise<ExecEnd> => {
      const [now, container] = await Promise.all([
        this.store.getJob(jobId).catch(() => null),
        this.runtime.inspect(jobId).catch(() => null),
      ]);
      const running = now?.state === 'running' && container?.status === 'running';
      return running ? { kind: 'exited', exitCode } : JOB_ENDED;
    });
    return { session, ended: Promise.race([exited, this.containerEnd(jobId, session)]) };
  }

  /**
   * Resolves once the job's container is no longer running. Asked each second while the session
   * lasts rather than by the engine's wait: a wait would stay open until the job ends, one per
   * session ever opened in it.
   */
  private containerEnd(jobId: string, session: ExecSession): Promise<ExecEnd> {
    return new Promise((resolve) => {
      const timer = setInterval(() => {
        void this.runtime.inspect(jobId).then(
          (now) => {
            if (now?.status === 'running') return;
            clearInterval(timer);
            resolve(JOB_ENDED);
          },
          () => undefined, // the engine is away: the session's own connection tells
        );
      }, CONTAINER_CHECK_MS);
      void session.exited.finally(() => clearInterval(timer));
    });
  }
}
