import { join } from 'node:path';
import {
  EngineUnavailableError,
  RuntimeError,
  type ContainerRuntime,
  type OutputWindow,
  type Workload,
  type WorkloadOutput,
  type WorkloadSpec,
} from '../../jobs/ports';
import { ChangePoller } from '../change-poller';
import type { EngineLogDriver } from '../job-container';
import { batchScript, envFileProblem } from './batch-script';
import { FILES, JobFiles, type Attempt, type AttemptFiles } from './job-files';
import { SQUEUE_FORMAT, parseSqueue, underWay, workloadOf, type SlurmJob } from './job-state';
import { SlurmCommandError, SlurmCommands } from './slurm-commands';

export interface SlurmRuntimeOptions {
  /** The slurm.conf of the cluster (SLURM_CONF); undefined: the system's. */
  conf: string | undefined;
  /** Shared by Jobdeck and every node: each attempt's files (job-files.ts). */
  workDir: string;
  /** engine.partition: every job's, unless its queue names one. */
  partition: string | undefined;
  /** The queues that name a partition of their own. */
  queuePartitions: readonly QueuePartition[];
  storeId: string;
  labels: Record<string, string>;
  init: boolean;
  logDriver: EngineLogDriver;
}

/** A queue's `partition`, with the configuration field that names it. */
export interface QueuePartition {
  queue: string;
  partition: string;
  field: string;
}

// Slurm sends no events: how often waiting jobs are looked at (one squeue of this store's jobs,
// answered from the controller's memory in a few ms).
const POLL_INTERVAL_MS = 250;
// How often a stop looks whether the job ended within its grace.
const STOP_POLL_MS = 200;
// How long a removal waits for a cancelled Slurm job to end: Slurm's KillWait (30 s by default)
// between its SIGTERM and SIGKILL, then the Epilog.
const REMOVE_WAIT_MS = 120_000;
// Past Jobdeck's own timeout and the stop's grace: Slurm's limit only ends a job that no Jobdeck
// instance stopped (all of them down). Slurm counts whole minutes.
const TIME_LIMIT_MARGIN_SECONDS = 60;
// scancel and scontrol on a job that ended meanwhile, or that Slurm purged: nothing to do.
const ALREADY_ENDED = /already completing or completed|invalid job id|job is no longer pending/i;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Slurm cluster through its client commands: each attempt of a job is one batch job, named
 * after the store, the job and the attempt, that runs the job's image with Docker on its node
 * (batch-script.ts). Its files (job-files.ts) hold its output and exit status, so that a job
 * is read again after any restart, and after Slurm has forgotten it.
 */
export class SlurmRuntime implements ContainerRuntime {
  private readonly commands: SlurmCommands;
  private readonly files: JobFiles;
  private readonly poller = new ChangePoller(() => this.list(), POLL_INTERVAL_MS);
  private readonly namePrefix: string;

  constructor(private readonly options: SlurmRuntimeOptions) {
    this.commands = new SlurmCommands({ conf: options.conf });
    this.files = new JobFiles(options.workDir, options.storeId);
    this.namePrefix = `jobdeck.${options.storeId}.`;
  }

  async ping(): Promise<void> {
    try {
      await this.commands.run('scontrol', ['ping'], 'ping the controller');
    } catch (error) {
      // `scontrol ping` answers, and fails, when it finds the controller down.
      if (error instanceof SlurmCommandError) {
        throw new EngineUnavailableError(`the Slurm controller does not answer: ${error.detail}`);
      }
      throw error;
    }
  }

  /**
   * The configured partitions the cluster lacks, each said with the field that names it: a start
   * refused on them. None when the controller does not answer: the start's ping says so.
   */
  async unknownPartitions(): Promise<string[]> {
    let output: string;
    try {
      output = await this.commands.run(
        'sinfo',
        ['--noheader', '--format=%R'],
        'list its partitions',
      );
    } catch (error) {
      if (error instanceof EngineUnavailableError) return [];
      throw error;
    }
    const known = [
      ...new Set(
        output
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      ),
    ];
    const { partition } = this.options;
    return [
      ...(partition === undefined ? [] : [{ field: 'engine.partition', partition, queue: null }]),
      ...this.options.queuePartitions,
    ]
      .filter((wanted) => !known.includes(wanted.partition))
      .map(
        ({ field, partition: name, queue }) =>
          `${field}: the Slurm cluster has no partition "${name}"${queue ? ` for queue ${queue}` : ''} (it has ${known.join(', ') || 'none'})`,
      );
  }

  /**
   * Submits the attempt held, then, of every Slurm job submitted for it (two launches at once
   * submit one each), releases the lowest and cancels the others, which never ran: the same
   * choice whoever makes it, so an attempt runs once however many launch it.
   */
  async launch(spec: WorkloadSpec): Promise<Workload> {
    const existing = await this.inspect(spec.jobId);
    if (existing && (existing.status !== 'created' || existing.attempt !== spec.attempt)) {
      return existing;
    }
    const problem = envFileProblem(spec.env);
    if (problem) throw new RuntimeError(problem);
    const attempt = { jobId: spec.jobId, attempt: spec.attempt };
    const dir = await this.files.make(attempt);
    const envFile = await this.files.writeEnv(attempt, spec.env);
    let mine: string;
    try {
      const script = await this.files.writeScript(
        attempt,
        envFile,
        batchScript(spec, dir, envFile, this.options),
      );
      mine = (await this.commands.run('sbatch', this.sbatchArgs(spec, dir, script), 'submit it'))
        .trim()
        .split(';')[0]!;
    } catch (error) {
      await this.files.removeFile(attempt, envFile);
      throw error;
    }
    const chosen = await this.choose(attempt, mine);
    if (chosen !== mine) {
      await this.cancel(mine);
      await this.files.removeFile(attempt, envFile);
    }
    const launched = await this.inspect(spec.jobId);
    if (!launched) {
      throw new RuntimeError(
        'its Slurm job directory vanished (removed outside Jobdeck?) at launch',
      );
    }
    return launched;
  }

  private sbatchArgs(spec: WorkloadSpec, dir: string, script: string): string[] {
    const timeLimit =
      spec.timeoutSeconds === undefined
        ? []
        : [
            `--time=${Math.ceil((spec.timeoutSeconds + spec.stopGraceSeconds + TIME_LIMIT_MARGIN_SECONDS) / 60)}`,
          ];
    return [
      '--parsable',
      '--hold',
      // Slurm would run a job again after its node failed: Jobdeck decides whether a job runs again.
      '--no-requeue',
      // Nothing of Jobdeck's environment goes into the job, nor into Slurm's records of it.
      '--export=NONE',
      `--job-name=${this.nameOf(spec)}`,
      `--chdir=${dir}`,
      `--output=${join(dir, FILES.slurmLog)}`,
      '--nodes=1',
      '--ntasks=1',
      // Slurm gives whole CPUs; docker's --cpus holds the job to its share of them.
      `--cpus-per-task=${Math.max(1, Math.ceil(spec.cpus))}`,
      `--mem=${Math.ceil(spec.memoryBytes / 1024 ** 2)}M`,
      ...timeLimit,
      ...this.partitionOf(spec),
      script,
    ];
  }

  /** `--partition`: the queue's own partition, else engine.partition, else none (the default). */
  private partitionOf(spec: WorkloadSpec): string[] {
    const partition =
      this.options.queuePartitions.find(({ queue }) => queue === spec.queue)?.partition ??
      this.options.partition;
    return partition === undefined ? [] : [`--partition=${partition}`];
  }

  /** The Slurm job that runs the attempt: the lowest submitted, released and recorded. */
  private async choose(attempt: Attempt, mine: string): Promise<string> {
    const submitted = (await this.squeue([`--name=${this.nameOf(attempt)}`]))
      // One cancelled by the launch that chose another: never a candidate again.
      .filter((job) => job.state !== 'CANCELLED')
      .map((job) => job.id);
    const chosen = [...submitted, mine].sort((a, b) => Number(a) - Number(b))[0]!;
    await this.files.recordSlurmJob(attempt, chosen);
    await this.commands.run('scontrol', ['release', chosen], 'release it').catch(ignoreEnded);
    return chosen;
  }

  async inspect(jobId: string): Promise<Workload | null> {
    const attempts = (await this.files.list()).filter((files) => files.jobId === jobId);
    if (attempts.length === 0) return null;
    // An earlier attempt's workload not removed yet is the one to report: the runner removes it.
    const [earliest] = attempts.sort((a, b) => a.attempt - b.attempt);
    // Removed meanwhile: the next attempt's, if any, is the one to report.
    return (await this.inspectAttempt(earliest!)) ?? this.inspect(jobId);
  }

  // Slurm's state first, then the files (workloadOf): a job that ends in between is seen running.
  async list(): Promise<Workload[]> {
    const mine = (await this.squeue([])).filter((job) => job.name.startsWith(this.namePrefix));
    const attempts = await this.files.list();
    return attempts.map((files) => workloadOf(files, this.jobOf(files, mine)));
  }

  /** The attempt's Slurm job: the one its launch chose, or while none is, the lowest held. */
  private jobOf(files: AttemptFiles, jobs: readonly SlurmJob[]): SlurmJob | null {
    if (files.slurmJob) return jobs.find((job) => job.id === files.slurmJob) ?? null;
    const name = this.nameOf(files);
    return (
      jobs.filter((job) => job.name === name).sort((a, b) => Number(a.id) - Number(b.id))[0] ?? null
    );
  }

  waitForChange(workload: Workload): Promise<void> {
    return this.poller.wait(workload);
  }

  /**
   * SIGTERM to the batch script, which passes it to the job; after the grace, a plain scancel,
   * whose SIGTERM the script answers with a SIGKILL to the container. A job not running yet is
   * cancelled at once.
   */
  async stop(workload: Workload, graceSeconds: number): Promise<void> {
    if (workload.status === 'exited') return;
    await this.files.recordStop(workload);
    if (workload.status !== 'running') return this.cancel(workload.id);
    await this.commands
      .run('scancel', ['--batch', '--signal=TERM', workload.id], 'stop it')
      .catch(ignoreEnded);
    const deadline = Date.now() + graceSeconds * 1000;
    while (Date.now() < deadline) {
      await sleep(STOP_POLL_MS);
      if ((await this.inspectAttempt(workload))?.status !== 'running') return;
    }
    await this.cancel(workload.id);
  }

  /** The attempt's workload, null once its directory is gone: Slurm's state first, as list's. */
  private async inspectAttempt(attempt: Attempt): Promise<Workload | null> {
    const jobs = await this.squeue([`--name=${this.nameOf(attempt)}`]);
    const files = await this.files.read(attempt);
    return files && workloadOf(files, this.jobOf(files, jobs));
  }

  async readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput> {
    return this.files.readOutput(workload, window);
  }

  /** Cancels its Slurm job if it still runs, and removes its directory once it has ended. */
  async remove(workload: Workload): Promise<void> {
    const now = await this.inspectAttempt(workload);
    if (now && now.status !== 'exited' && now.id) {
      await this.cancel(now.id);
      await this.untilEnded(workload, now.id);
    }
    await this.files.remove(workload);
  }

  /**
   * Its batch script (answering the scancel) and the Epilog write into the attempt's directory
   * until Slurm has ended the job: a removal meanwhile fails on the files they add (ENOTEMPTY).
   */
  private async untilEnded(attempt: Attempt, slurmJob: string): Promise<void> {
    const deadline = Date.now() + REMOVE_WAIT_MS;
    for (;;) {
      const jobs = await this.squeue([`--name=${this.nameOf(attempt)}`]);
      const job = jobs.find(({ id }) => id === slurmJob);
      if (!job || !underWay(job)) return; // ended, or ended and purged
      if (Date.now() > deadline) {
        throw new RuntimeError(
          `Slurm job ${slurmJob} has not ended ${REMOVE_WAIT_MS / 1000} s after its scancel; its directory is removed once it has`,
        );
      }
      await sleep(STOP_POLL_MS);
    }
  }

  private async cancel(slurmJob: string): Promise<void> {
    await this.commands.run('scancel', [slurmJob], 'cancel it').catch(ignoreEnded);
  }

  private nameOf({ jobId, attempt }: Attempt): string {
    return `${this.namePrefix}${jobId}.${attempt}`;
  }

  private async squeue(filter: string[]): Promise<SlurmJob[]> {
    const output = await this.commands.run(
      'squeue',
      ['--noheader', '--me', '--states=all', `--format=${SQUEUE_FORMAT}`, ...filter],
      'list its jobs',
    );
    return parseSqueue(output);
  }
}

function ignoreEnded(error: unknown): void {
  if (error instanceof SlurmCommandError && ALREADY_ENDED.test(error.detail)) return;
  throw error;
}
