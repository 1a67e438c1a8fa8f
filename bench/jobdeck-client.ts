import { readFileSync } from 'node:fs';

export const BENCH_IMAGE = 'jobdeck/busybox:local';

/** How long a bench waits for one job before it gives up. */
export const BENCH_WAIT_MS = 180_000;

/** The bench service's projects: one queue that never dispatches, and queues sized per figure. */
export function benchProjects() {
  const image = BENCH_IMAGE;
  return {
    b: {
      queues: {
        paused: { paused: true, max_running: 64 },
        fast: { max_running: 16, priority: 10 },
        eight: { max_running: 8 },
        // The control-plane step's: as wide as its simulated cluster.
        wide: { max_running: 2000 },
      },
      definitions: {
        true: { '1': { image, command: ['true'] } },
        // Fails its first attempt, succeeds on the next: the retry figure.
        'fails-once': {
          '1': {
            image,
            command: ['sh', '-c', '[ "$JOBDECK_ATTEMPT" -ge 2 ]'],
            retry: { attempts: 2, backoff: { initial_seconds: 0, jitter: 0 } },
          },
        },
        sleep: { '1': { image, command: ['sleep', '120'], stop_grace_seconds: 1 } },
        // About 1,000 lines a second for a minute (140 lines, then 0.1 s asleep: each round takes
        // some 0.14 s on the bench machine): the followed-log figure. Busybox's seq has no -f.
        chatty: {
          '1': {
            image,
            command: [
              'sh',
              '-c',
              'end=$(($(date +%s) + 60)); while [ $(date +%s) -lt $end ]; do seq 1 140 | sed "s/.*/line & of a chatty job/"; sleep 0.1; done',
            ],
            stop_grace_seconds: 1,
          },
        },
      },
      // Resumed by the schedule step alone: paused, it fires nothing during the other steps.
      schedules: {
        'every-second': {
          job_definition: 'b::true:1',
          job_queue: 'b::fast',
          cron: '* * * * * *',
          overlap: 'allow',
          paused: true,
        },
      },
    },
  };
}

export const BENCH_SETTINGS = { log_level: 'warn', max_running: 64, projects: benchProjects() };

export function rssMiB(pid: number): number {
  // VmRSS from procfs: the resident set the kernel accounts to the process.
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kib / 1024) * 10) / 10;
}

/** User + system CPU time of a process so far, from procfs (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
