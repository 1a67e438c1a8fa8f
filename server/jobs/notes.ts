import { DEPENDENCY_TYPE_WORDS, type DependencyType, type JobState } from '../../contract';

/**
 * Every system_note the service writes, in one place, in words a user can act on.
 */
const iso = (ms: number) => new Date(ms).toISOString();

const counted = (n: number) => n.toLocaleString('en-US');

/** 256 MiB, 1.5 GiB; `decimals` always shown (255.9 MiB), else only when not whole. */
function bytesInWords(bytes: number, decimals?: number): string {
  const [size, unit] = bytes >= 2 ** 30 ? [bytes / 2 ** 30, 'GiB'] : [bytes / 2 ** 20, 'MiB'];
  if (decimals !== undefined) return `${size.toFixed(decimals)} ${unit}`;
  return `${Number.isInteger(size) ? size : size.toFixed(1)} ${unit}`;
}

const ORDINAL_SUFFIXES = { one: 'st', two: 'nd', few: 'rd', other: 'th' } as Record<string, string>;
// Made on first use: building it at import would cost every start-up ICU's plural data.
let ordinalRules: Intl.PluralRules | undefined;
/** 1st, 2nd, 3rd, 11th, 1,002nd. */
const ordinal = (n: number) => {
  ordinalRules ??= new Intl.PluralRules('en-US', { type: 'ordinal' });
  return `${counted(n)}${ORDINAL_SUFFIXES[ordinalRules.select(n)]}`;
};

export const notes = {
  waitingWithArray: (parent: string) => `waiting until its array (job ${parent}) may start`,
  waitingForArrayLinks: (parent: string) =>
    `waiting for the jobs its array (job ${parent}) makes it follow`,
  cancelledWithArray: (parent: string) => `cancelled with its array (job ${parent})`,
  arrayCancelling: 'cancellation requested: cancelling its children that have not ended',
  /** `byState`: the children's counts as `childCounts` gives them, the console's chips' own. */
  arrayProgress: (size: number, byState: readonly [JobState, number][]) =>
    `${counted(byState.find(([state]) => state === 'completed')?.[1] ?? 0)} of ${counted(size)} completed` +
    byState
      .filter(([state]) => state !== 'completed')
      .map(([state, n]) => `, ${counted(n)} ${state}`)
      .join(''),
  scheduled: (at: number) => `scheduled for ${iso(at)}`,
  waitingForDependencies: (
    waiting: readonly { job: string; needs: string; state: string }[],
    total: number,
  ) => {
    const each = waiting.slice(0, 3).map((w) => `${w.job} ${w.needs} (it is ${w.state})`);
    if (waiting.length > 3) each.push(`${waiting.length - 3} more`);
    return total === 1
      ? `waiting for job ${each[0]}`
      : `waiting for ${waiting.length} of ${total} jobs: ${each.join('; ')}`;
  },
  dependencyUnmeetable: (job: string, state: string, type: DependencyType) =>
    `cancelled: it was to start after job ${job} ${DEPENDENCY_TYPE_WORDS[type]} (${type}), which ended ${state}`,
  firingSkipped: (job: string, state: string) =>
    `skipped: the previous firing's job ${job} is still ${state} (overlap: skip)`,
  firingMissed: 'skipped: its time passed while no instance ran (missed: skip)',
  firingLate: 'run late: its time passed while no instance ran (missed: run_once)',
  dependencyGone: (id: string) =>
    `cancelled: job ${id}, which it was to start after, is no longer stored`,
  /** `memoryBytes`: the memory it starts with when an out-of-memory kill raised it. */
  retryingAt: (next: number, of: number, at: number, previous: string, memoryBytes?: number) =>
    `attempt ${next} of ${of} starts at ${iso(at)}${memoryBytes === undefined ? '' : ` with ${bytesInWords(memoryBytes)} of memory`} (attempt ${next - 1} ${previous})`,
  memoryCeilingReached: (ceilingBytes: number) =>
    `not retried: it ran with ${bytesInWords(ceilingBytes)}, its out-of-memory retries' ceiling (retry.out_of_memory.max_memory_bytes)`,
  queueSlotsBusy: (running: number, max: number, queue: string) =>
    `${running} of ${max} running in queue ${queue}`,
  serviceSlotsBusy: (running: number, max: number) =>
    `${running} of ${max} running on this service (max_running)`,
  /** `clause`: quotas.ts's "project team-a is at its quota of 8 cpus (borrowing 2 of 2 allowed)". */
  waitingForQuota: (clause: string) => `waiting: ${clause}`,
  /** `place`: where the job stands among those waiting in its queue, each counted this far. */
  waitingForSlot: (
    slots: string,
    place?: { place: number; waiting: number; queue: string; counted: number },
  ) => {
    if (!place) return `waiting for a slot: ${slots}`;
    const { counted: max } = place;
    const at = place.place > max ? `past the first ${counted(max)}` : ordinal(place.place);
    const of = place.waiting > max ? `more than ${counted(max)}` : counted(place.waiting);
    return `waiting for a slot: ${at} of ${of} waiting in queue ${place.queue}; ${slots}`;
  },
  queuePaused: (queue: string, reason: string | null) =>
    `waiting: queue ${queue} is paused${reason ? ` (${reason})` : ''}`,
  creatingContainer: (image: string) => `creating the container from image ${image}`,
  failed: (code: number) => `exited with code ${code}`,
  /** Killed by the kernel at its memory limit; `peak`: the most it was seen to use, when sampled. */
  outOfMemory: (limitBytes: number, peakBytes: number | null) =>
    `killed: out of memory at its ${bytesInWords(limitBytes)} limit (peak ${peakBytes === null ? 'not sampled' : bytesInWords(peakBytes, 1)})`,
  /** Exit 137 that the engine, which reports every out-of-memory kill, did not call one. */
  killedNotOutOfMemory: (code: number) =>
    `killed by signal ${code - 128} (not out of memory); exit code ${code}`,
  timedOut: (seconds: number, code: number) =>
    `ran past its timeout of ${seconds} s and was stopped (exit code ${code})`,
  cancelledBeforeStart: 'cancelled on request before it started',
  /** `reason`: "team-a reclaimed 1 job it lent" (preemption.ts). */
  preempting: (reason: string, grace: number) =>
    `preempting: ${reason}; SIGTERM sent, SIGKILL after ${grace} s if still running`,
  preempted: (reason: string) => `preempted: ${reason}; will run again`,
  cancelling: (grace: number) =>
    `cancellation requested: SIGTERM sent, SIGKILL after ${grace} s if still running`,
  cancelledWhileRunning: (code: number) =>
    `cancelled on request; the container exited with code ${code}`,
  cancelledBeforeContainer: 'cancelled on request before the container started',
  requeuedNeverCreated:
    'requeued: its container was never created (the service stopped before it could), so it never ran',
  lostWithInstance:
    'the Jobdeck instance running it stopped, and its container is gone, so its outcome is unknown; submit it again',
  vanished:
    'the container vanished (removed outside Jobdeck?) so its outcome is unknown; submit it again',
  cancelledContainerGone:
    'cancelled on request; the container was gone, so its exit code is unknown',
  waitingForEngine: (since: number) =>
    `waiting for the container engine: unreachable since ${iso(since)}`,
  engineAwayWhileActive: (since: number) =>
    `the container engine is unreachable since ${iso(since)}; the job is settled once it answers`,
  engineStopped: (code: number) =>
    `exited with code ${code} while the container engine was stopped or unreachable, so the engine may have ended it; submit it again`,
  endedWithoutExitCode: 'the container engine reports no exit code for it; submit it again',
  waitingForPlacement: (reason: string) => `waiting for the container engine: ${reason}`,
  runningOn: (node: string) => `running on node ${node}`,
  engineFailed: (reason: string) => `the container engine failed: ${reason}`,
  waitingForSecretKey: (keyId: string) =>
    `waiting for secret key ${keyId}: its sensitive values were sealed with it, and this instance does not have it (secret_key, retired_secret_keys, or data_dir/secret.key and secret.key.retired)`,
};
