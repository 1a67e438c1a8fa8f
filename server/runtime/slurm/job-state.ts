import type { Workload } from '../../jobs/ports';
import type { AttemptFiles } from './job-files';

/** A Slurm job as `squeue --format` prints it (SQUEUE_FIELDS), times in epoch seconds. */
export interface SlurmJob {
  id: string;
  name: string;
  /** RUNNING, PENDING, COMPLETED, CANCELLED, …: the long form (%T). */
  state: string;
  start: number | null;
  end: number | null;
  node: string | null;
  cpus: string;
  memory: string;
  /** Why it is pending, or what ended it (%r); `None` for neither. */
  reason: string;
}

/** squeue's --format for SlurmJob, `|`-separated: no field Jobdeck gives Slurm holds one. */
export const SQUEUE_FORMAT = '%i|%j|%T|%S|%e|%N|%C|%m|%r';

const epochSeconds = (text: string | undefined) =>
  text && /^\d+$/.test(text) && text !== '0' ? Number(text) : null;

/** squeue's lines (with SLURM_TIME_FORMAT=%s) as jobs. */
export function parseSqueue(output: string): SlurmJob[] {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id = '', name = '', state = '', start, end, node = '', cpus = '', memory = ''] =
        line.split('|');
      // The reason is last, so that a reason with a `|` in it stays whole.
      const reason = line.split('|').slice(8).join('|');
      return {
        id,
        name,
        state,
        start: epochSeconds(start),
        end: epochSeconds(end),
        node: node || null,
        cpus,
        memory,
        reason,
      };
    });
}

// The batch job runs, or is ending (its processes being stopped, its Epilog running).
const RUNNING = new Set(['RUNNING', 'COMPLETING', 'SUSPENDED', 'STOPPED', 'SIGNALING', 'RESIZING']);
const WAITING = new Set(['PENDING', 'CONFIGURING', 'REQUEUED', 'REQUEUE_HOLD', 'REQUEUE_FED']);

/**
 * How long past Slurm's end time of a job whose container started its exit status may still be
 * missing from the attempt's directory before the job is taken as ended without one. The batch
 * script (or the Epilog) writes it before Slurm ends the job, but Slurm's end time is in whole
 * seconds of the controller's clock, and a shared work directory may show a node's new file late.
 */
export const EXIT_STATUS_GRACE_MS = 10_000;

/** Whether the Slurm job has not ended yet: waiting, running, or ending (its Epilog not done). */
export const underWay = (job: SlurmJob) => RUNNING.has(job.state) || WAITING.has(job.state);

/**
 * Slurm's pending reasons in words about the job (squeue's %r; `man squeue`, JOB REASON CODES).
 * The many limits of accounting (Assoc…, QOS…) fall to the general sentence with their code.
 */
function waitingFor(job: SlurmJob): string {
  const { reason } = job;
  if (reason === 'Resources') {
    return `waiting for a node with ${job.cpus} CPUs and ${job.memory} of memory free (other jobs hold them)`;
  }
  if (reason === 'Priority') return "waiting behind jobs of higher priority in Slurm's queue";
  if (reason === 'None' || reason === '') return 'waiting for Slurm to schedule it';
  if (reason === 'JobHeldAdmin') return 'held by a Slurm administrator (scontrol release frees it)';
  if (reason === 'BeginTime') return 'waiting for its start time in Slurm';
  if (/^Partition(Down|Inactive)$/.test(reason)) {
    return `waiting: its partition is ${reason === 'PartitionDown' ? 'down' : 'inactive'}`;
  }
  if (/^ReqNodeNotAvail|^Nodes_required/.test(reason)) {
    return 'waiting: the nodes it could run on are down, drained or reserved';
  }
  if (reason.startsWith('Partition')) {
    return `waiting: its partition's limits do not let it run (${reason})`;
  }
  if (/^(QOS|Assoc)/.test(reason)) {
    return `waiting for a limit of Slurm's accounting to allow it (${reason})`;
  }
  return `waiting in Slurm's queue (${reason})`;
}

const messages = {
  configuring: (node: string | null) => `its node${node ? ` ${node}` : ''} is being readied for it`,
  starting: (node: string | null) => `its container is starting on node ${node ?? '(unknown)'}`,
  couldNotRun: (node: string | null, error: string) =>
    `Docker could not run it${node ? ` on node ${node}` : ''}: ${error}`,
  cancelledOutside: (id: string) =>
    `Slurm job ${id} was cancelled without Jobdeck asking (scancel by an administrator?); submit it again`,
  nodeLost: (node: string | null) =>
    `its node${node ? ` ${node}` : ''} stopped answering Slurm (NODE_FAIL), so whether it ran to the end is unknown; submit it again`,
  endedBySlurm: (id: string, state: string, reason: string) =>
    `Slurm ended job ${id} (${state}${reason && reason !== 'None' ? `, ${reason}` : ''}) before its container ended; its batch script's words are in slurm.out of its directory`,
  forgotten: (id: string) =>
    `Slurm no longer knows job ${id}, and it left no exit status (lost with its node, or with the controller's state)`,
};

/**
 * The workload of one attempt, from its directory and its Slurm job (null when Slurm does not
 * know it: not submitted yet, or ended long ago and purged), `now` on Jobdeck's clock. The exit
 * status the script wrote is the truth of how it ended; Slurm's state says how far it got before
 * that. The files must be read after Slurm's state: read before, they miss the status of a job
 * that ended in between.
 */
export function workloadOf(files: AttemptFiles, job: SlurmJob | null, now = Date.now()): Workload {
  const id = job?.id ?? files.slurmJob ?? '';
  const base: Workload = {
    id,
    jobId: files.jobId,
    attempt: files.attempt,
    status: 'pending',
    exitCode: null,
    startedAt: null,
    finishedAt: null,
    node: job?.node ?? null,
    message: null,
  };
  const { startedAt } = files;
  if (files.exit) {
    const cancelledOutside = job?.state === 'CANCELLED' && !files.stopRequested;
    return {
      ...base,
      status: 'exited',
      exitCode: files.exit.exitCode,
      startedAt,
      // When the script wrote it: Slurm's end time is an expected one (start + time limit) until
      // it has seen the batch script end, which a controller restarting sees only later.
      finishedAt: files.exit.at,
      message: cancelledOutside ? messages.cancelledOutside(id) : null,
      ...(files.exit.oomKilled && { cause: 'oom_killed' as const }),
    };
  }
  if (!job) {
    // Held by a launch that has not chosen its Slurm job yet, or submitted nothing before it died.
    if (!files.slurmJob) return { ...base, status: 'created' };
    return { ...base, status: 'exited', message: messages.forgotten(files.slurmJob) };
  }
  if (job.state === 'PENDING' && job.reason === 'JobHeldUser')
    return { ...base, status: 'created' };
  if (job.state === 'CONFIGURING') return { ...base, message: messages.configuring(job.node) };
  if (WAITING.has(job.state)) return { ...base, message: waitingFor(job) };
  if (RUNNING.has(job.state)) {
    // Running in Slurm's eyes from the start of the batch script: the job's, once its container is.
    return startedAt === null
      ? { ...base, message: messages.starting(job.node) }
      : { ...base, status: 'running', startedAt };
  }

  const endedAt = job.end ? job.end * 1000 : null;
  // Its container started, so its status is on its way (batch-script.ts, slurm-epilog.sh): still
  // ending, and looked at again, until it shows or the grace is over (its node died meanwhile).
  if (startedAt !== null && endedAt !== null && now < endedAt + EXIT_STATUS_GRACE_MS) {
    return { ...base, status: 'running', startedAt };
  }
  const ended = { ...base, status: 'exited' as const, finishedAt: endedAt };
  if (files.stopRequested) return ended; // stopped before its container ended, or even started
  if (files.error) return { ...ended, message: messages.couldNotRun(job.node, files.error) };
  if (job.state === 'CANCELLED') return { ...ended, message: messages.cancelledOutside(id) };
  if (job.state === 'NODE_FAIL') {
    return { ...ended, message: messages.nodeLost(job.node), cause: 'node_lost' };
  }
  return { ...ended, message: messages.endedBySlurm(id, job.state, job.reason) };
}
