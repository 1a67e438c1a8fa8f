import { SLOT_STATES } from '../../contract';
import type { Job } from './model';
import { notes } from './notes';
import {
  RuntimeError,
  type ContainerRuntime,
  type JobStore,
  type Logger,
  type SecretBox,
} from './ports';
import type { JobStateMachine } from './state-machine';

interface Supervision {
  containerId?: string;
  timedOut: boolean;
}

/**
 * Runs one container per job and records how it ended. The only place where sealed
 * environment values are opened, just before they go to the engine.
 */
export class Runner {
  private readonly supervised = new Map<string, Supervision>();

  constructor(
    private readonly runtime: ContainerRuntime,
    private readonly machine: JobStateMachine,
    private readonly store: JobStore,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
    private readonly logTailBytes: number,
  ) {}

  /** Starts a job that is in `starting`; returns at once. */
  launch(job: Job): void {
    this.track(this.execute(job));
  }

  /** Follows an existing container to its end (after a restart, or when a start raced a cancel). */
  adopt(job: Job, containerId: string): void {
    this.track(this.supervise(job, containerId));
  }

  /** Asks the engine to stop the job's container, if it has one yet; never throws. */
  async requestStop(job: Job): Promise<void> {
    const containerId = this.supervised.get(job.id)?.containerId;
    if (!containerId) return; // execute() sees `cancelling` once the container exists
    await this.runtime.stop(containerId, job.stopGraceSeconds).catch((error: unknown) => {
      this.logger.warn({ jobId: job.id, err: error }, 'stop request failed');
    });
  }

  private track(work: Promise<void>): void {
    void work.catch((error: unknown) => {
      this.logger.error({ err: error }, 'runner failed unexpectedly');
    });
  }

  private async execute(job: Job): Promise<void> {
    const supervision: Supervision = { timedOut: false };
    this.supervised.set(job.id, supervision);
    let containerId: string;
    try {
      containerId = await this.runtime.create({
        jobId: job.id,
        image: job.image,
        command: job.command,
        env: job.env.map(
          (v) => `${v.name}=${'sealed' in v ? this.secrets.open(v.sealed) : v.value}`,
        ),
        cpus: job.cpus,
        memoryBytes: job.memoryBytes,
        network: job.network,
      });
    } catch (error) {
      this.supervised.delete(job.id);
      await this.failStart(job.id, error);
      return;
    }
    supervision.containerId = containerId;
    await this.store.setContainerId(job.id, containerId);

    const current = await this.store.getJob(job.id);
    if (current?.state === 'cancelling') {
      await this.runtime.remove(containerId).catch(() => undefined);
      this.supervised.delete(job.id);
      await this.machine.move(current, 'cancelled', notes.cancelledBeforeContainer, {
        finishedAt: Date.now(),
      });
      return;
    }
    try {
      await this.runtime.start(containerId);
    } catch (error) {
      this.supervised.delete(job.id);
      await this.runtime.remove(containerId).catch(() => undefined);
      await this.failStart(job.id, error);
      return;
    }
    const running = await this.machine.move(job, 'running', null, {
      startedAt: Date.now(),
      containerId,
    });
    // Not moved: a cancel won the race while the container started; it is `cancelling` now.
    const followed = running ?? (await this.store.getJob(job.id));
    if (followed) await this.supervise(followed, containerId);
  }

  private async supervise(job: Job, containerId: string): Promise<void> {
    const supervision = this.supervised.get(job.id) ?? { timedOut: false };
    supervision.containerId = containerId;
    this.supervised.set(job.id, supervision);

    const deadline = (job.startedAt ?? Date.now()) + job.timeoutSeconds * 1000;
    const timer = setTimeout(
      () => {
        supervision.timedOut = true;
        void this.runtime.stop(containerId, job.stopGraceSeconds).catch(() => undefined);
      },
      Math.max(0, deadline - Date.now()),
    );
    if (job.state === 'cancelling') await this.requestStop(job);

    let exitCode: number;
    try {
      exitCode = await this.runtime.wait(containerId);
    } catch (error) {
      clearTimeout(timer);
      this.supervised.delete(job.id);
      await this.settle(job.id, () => ({ to: 'error', note: messageOf(error), fields: {} }));
      return;
    }
    clearTimeout(timer);
    const logs = await this.runtime.logs(containerId, this.logTailBytes).catch(() => undefined);
    if (logs) await this.store.saveLogs(job.id, { ...logs, text: this.redact(logs.text, job) });

    // Record the outcome before removing the container: a crash in between then leaves an
    // orphan that recovery removes, never a finished job whose outcome is lost.
    const fields = { exitCode, finishedAt: Date.now() };
    await this.settle(job.id, (state) => {
      if (state === 'cancelling') {
        return { to: 'cancelled', note: notes.cancelledWhileRunning(exitCode), fields };
      }
      if (supervision.timedOut) {
        return { to: 'timeout', note: notes.timedOut(job.timeoutSeconds, exitCode), fields };
      }
      return exitCode === 0
        ? { to: 'completed', note: null, fields }
        : { to: 'failed', note: notes.failed(exitCode), fields };
    });
    this.supervised.delete(job.id);
    await this.runtime.remove(containerId).catch((error: unknown) => {
      this.logger.warn({ jobId: job.id, err: error }, 'could not remove a finished container');
    });
  }

  /** A job that prints its own secret must not leak it through the logs endpoint. */
  private redact(text: string, job: Job): string {
    let redacted = text;
    for (const variable of job.env) {
      if (!('sealed' in variable)) continue;
      const secret = this.secrets.open(variable.sealed);
      if (secret) redacted = redacted.split(secret).join(`[${variable.name} redacted]`);
    }
    return redacted;
  }

  private async failStart(jobId: string, error: unknown): Promise<void> {
    await this.settle(jobId, () => ({ to: 'error', note: messageOf(error), fields: {} }));
  }

  /**
   * Records the outcome against the job's current state. A cancel can land between the read
   * and the write, so a lost compare-and-set re-reads and decides again.
   */
  private async settle(
    jobId: string,
    decide: (state: Job['state']) => {
      to: Job['state'];
      note: string | null;
      fields: { exitCode?: number; finishedAt?: number };
    },
  ): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const job = await this.store.getJob(jobId);
      if (!job || !SLOT_STATES.includes(job.state)) return;
      const outcome = decide(job.state);
      if (await this.machine.move(job, outcome.to, outcome.note, outcome.fields)) return;
    }
    this.logger.error({ jobId }, 'could not record the outcome of a job after 5 attempts');
  }
}

function messageOf(error: unknown): string {
  if (error instanceof RuntimeError) return error.message;
  return `the container engine failed: ${error instanceof Error ? error.message : String(error)}`;
}
