import { describe, expect, it } from 'vitest';
import type { AttemptFiles } from './job-files';
import {
  EXIT_STATUS_GRACE_MS,
  parseSqueue,
  underWay,
  workloadOf,
  type SlurmJob,
} from './job-state';

const files = (over: Partial<AttemptFiles> = {}): AttemptFiles => ({
  jobId: 'job-1',
  attempt: 1,
  slurmJob: '42',
  startedAt: null,
  exit: null,
  error: null,
  stopRequested: false,
  ...over,
});

const job = (over: Partial<SlurmJob> = {}): SlurmJob => ({
  id: '42',
  name: 'jobdeck.store.job-1.1',
  state: 'PENDING',
  start: null,
  end: null,
  node: null,
  cpus: '2',
  memory: '512M',
  reason: 'None',
  ...over,
});

describe('underWay', () => {
  it('holds until Slurm ended the job: a completing job (its Epilog running) is still under way', () => {
    for (const state of ['PENDING', 'CONFIGURING', 'RUNNING', 'COMPLETING']) {
      expect(underWay(job({ state })), state).toBe(true);
    }
    for (const state of ['COMPLETED', 'CANCELLED', 'FAILED', 'TIMEOUT', 'NODE_FAIL']) {
      expect(underWay(job({ state })), state).toBe(false);
    }
  });
});

describe('parseSqueue', () => {
  it('reads squeue --format lines with epoch times, N/A as none, and the reason whole', () => {
    expect(
      parseSqueue(
        '7|jobdeck.s.j.2|RUNNING|1796635127|N/A|vm|1|64M|None\n8|n|PENDING|N/A|N/A||2|1G|a|b\n',
      ),
    ).toEqual([
      {
        id: '7',
        name: 'jobdeck.s.j.2',
        state: 'RUNNING',
        start: 1796635127,
        end: null,
        node: 'vm',
        cpus: '1',
        memory: '64M',
        reason: 'None',
      },
      {
        id: '8',
        name: 'n',
        state: 'PENDING',
        start: null,
        end: null,
        node: null,
        cpus: '2',
        memory: '1G',
        reason: 'a|b',
      },
    ]);
  });
});

describe('a Slurm job as a workload', () => {
  it("says Slurm's pending reasons in words", () => {
    const note = (reason: string) => workloadOf(files(), job({ reason })).message;
    expect(note('Resources')).toBe(
      'waiting for a node with 2 CPUs and 512M of memory free (other jobs hold them)',
    );
    expect(note('Priority')).toBe("waiting behind jobs of higher priority in Slurm's queue");
    expect(note('QOSMaxJobsPerUserLimit')).toBe(
      "waiting for a limit of Slurm's accounting to allow it (QOSMaxJobsPerUserLimit)",
    );
    expect(note('PartitionDown')).toBe('waiting: its partition is down');
    expect(note('SomethingNew')).toBe("waiting in Slurm's queue (SomethingNew)");
    expect(workloadOf(files(), job()).status).toBe('pending');
  });

  it('is created while its launch holds it, and pending until its container started', () => {
    expect(workloadOf(files({ slurmJob: null }), job({ reason: 'JobHeldUser' })).status).toBe(
      'created',
    );
    const starting = workloadOf(files(), job({ state: 'RUNNING', node: 'vm', start: 100 }));
    expect([starting.status, starting.message]).toEqual([
      'pending',
      'its container is starting on node vm',
    ]);
    const running = workloadOf(
      files({ startedAt: 123_456 }),
      job({ state: 'RUNNING', node: 'vm' }),
    );
    expect([running.status, running.startedAt, running.node]).toEqual(['running', 123_456, 'vm']);
  });

  it('ends with the exit status its script wrote, an OOM kill included', () => {
    const exit = { exitCode: 137, oomKilled: true, at: 5000 };
    const done = workloadOf(files({ exit }), job({ state: 'FAILED', end: 4 }));
    expect([done.status, done.exitCode, done.cause, done.finishedAt, done.message]).toEqual([
      'exited',
      137,
      'oom_killed',
      5000,
      null,
    ]);
    // Slurm forgot it (MinJobAge): its files still say how it ended.
    expect(workloadOf(files({ exit }), null).finishedAt).toBe(5000);
  });

  it("ends when its script wrote the exit status, not at Slurm's expected end of a job it still thinks runs", () => {
    // A controller restarted while the job ended still says RUNNING, and %e is start + time limit.
    const exit = { exitCode: 0, oomKilled: false, at: 9_000_000 };
    const seen = workloadOf(
      files({ exit }),
      job({ state: 'RUNNING', start: 8000, end: 8000 + 3720 }),
    );
    expect([seen.status, seen.finishedAt]).toEqual(['exited', 9_000_000]);
  });

  it("says why it ended without an exit status, unless Jobdeck's stop ended it", () => {
    const ended = (over: Partial<AttemptFiles>, state: string, reason = 'None') =>
      workloadOf(files(over), job({ state, node: 'vm', reason }));
    expect(ended({ error: 'No such image: x' }, 'FAILED').message).toBe(
      'Docker could not run it on node vm: No such image: x',
    );
    expect(ended({}, 'CANCELLED').message).toMatch(
      /^Slurm job 42 was cancelled without Jobdeck asking/,
    );
    expect(ended({ stopRequested: true }, 'CANCELLED').message).toBeNull();
    const lost = ended({}, 'NODE_FAIL');
    expect([lost.cause, lost.exitCode]).toEqual(['node_lost', null]);
    expect(ended({}, 'TIMEOUT', 'TimeLimit').message).toMatch(
      /^Slurm ended job 42 \(TIMEOUT, TimeLimit\)/,
    );
    expect(workloadOf(files(), null).message).toMatch(/^Slurm no longer knows job 42/);
  });

  it('is still ending while Slurm has ended a job whose container started but its exit status has not shown yet', () => {
    const end = 1_796_635_127;
    const started = files({ startedAt: end * 1000 - 2000 });
    for (const state of ['COMPLETED', 'FAILED', 'CANCELLED', 'TIMEOUT', 'NODE_FAIL']) {
      const ending = workloadOf(started, job({ state, end, node: 'vm' }), end * 1000 + 500);
      expect([ending.status, ending.startedAt, ending.message], state).toEqual([
        'running',
        end * 1000 - 2000,
        null,
      ]);
    }
    // Within the grace, a stop that came past its grace period keeps the exit code to come.
    expect(
      workloadOf(
        { ...started, stopRequested: true },
        job({ state: 'CANCELLED', end }),
        end * 1000 + EXIT_STATUS_GRACE_MS - 1,
      ).status,
    ).toBe('running');
  });

  it("ends without an exit status once the grace past Slurm's end is over: lost with its node", () => {
    const end = 1_796_635_127;
    const started = files({ startedAt: end * 1000 - 2000 });
    const after = end * 1000 + EXIT_STATUS_GRACE_MS;
    const completed = workloadOf(started, job({ state: 'COMPLETED', end }), after);
    expect([completed.status, completed.exitCode, completed.finishedAt]).toEqual([
      'exited',
      null,
      end * 1000,
    ]);
    expect(completed.message).toMatch(
      /^Slurm ended job 42 \(COMPLETED\) before its container ended/,
    );
    const lost = workloadOf(started, job({ state: 'NODE_FAIL', end, node: 'vm' }), after);
    expect([lost.status, lost.cause]).toEqual(['exited', 'node_lost']);
    // No end time to count the grace from: ended at once.
    expect(workloadOf(started, job({ state: 'COMPLETED' }), end * 1000).status).toBe('exited');
  });

  it('says a job Slurm cancelled outside Jobdeck, even with its exit code', () => {
    const exit = { exitCode: 143, oomKilled: false, at: 1 };
    expect(workloadOf(files({ exit }), job({ state: 'CANCELLED' })).message).toMatch(
      /cancelled without Jobdeck asking/,
    );
    expect(
      workloadOf(files({ exit, stopRequested: true }), job({ state: 'CANCELLED' })).message,
    ).toBeNull();
  });
});
