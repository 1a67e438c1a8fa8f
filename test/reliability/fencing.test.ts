import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobState } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import { createDatabase } from '../support/postgres';
import {
  printLastLines,
  startService,
  testProjects,
  TEST_IMAGE,
  type TestService,
} from '../support/service';
import { submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

/**
 * Fencing, on PostgreSQL and one shared Docker Engine: an instance frozen past the instance
 * timeout while it holds jobs in `starting`, `running` and `cancelling`, taken over by another,
 * then thawed, changes nothing of them: no move of its own recorded after the freeze, no job
 * launched twice, none lost.
 */
const INSTANCE_TIMEOUT_S = 4;
const SLOT_STATES: JobState[] = ['starting', 'running', 'cancelling'];
const FINAL_STATES: JobState[] = ['completed', 'failed', 'timeout', 'cancelled', 'error'];
// Held jobs keep their slots until the test lets them go (a file it makes in each container).
const HOLD = 'while [ ! -e /tmp/release ]; do sleep 0.2; done; echo done';

const starts = new ContainerStarts();
const scratch = mkdtempSync(join(tmpdir(), 'jobdeck-fencing-'));
let services: TestService[] = [];
let db: pg.Client | undefined;

beforeAll(() => starts.started());
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') printLastLines(services);
  for (const service of services) await service.stop('SIGKILL');
  services = [];
  await db?.end();
  db = undefined;
});
afterAll(() => {
  starts.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await sleep(100)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

/** Whether the process is stopped (SIGSTOP): its state in /proc is `T`. */
function isFrozen(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
}

async function count(text: string, params: unknown[]): Promise<number> {
  return Number((await db!.query<{ n: string }>(text, params)).rows[0]!.n);
}

/** Lets every held job of `ids` go (a job not running yet is let go on a later sweep). */
function release(ids: string[]): void {
  for (const id of ids) {
    try {
      execFileSync('docker', ['exec', `jobdeck-${id}`, 'touch', '/tmp/release'], {
        stdio: 'ignore',
      });
    } catch {
      // not running (yet, or any more)
    }
  }
}

describe('an instance taken over while frozen, then thawed (PostgreSQL, one Docker Engine)', () => {
  it('changes nothing of the jobs it lost: no move of its own, none launched twice, none lost', async () => {
    const perState = budget({ ci: 2, full: 5 });
    const url = await createDatabase();
    db = new pg.Client({ connectionString: url });
    await db.connect();
    const projects = testProjects();
    (projects.t.queues as Record<string, object>).fenced = { max_running: 4 * perState };
    // Ignores SIGTERM and has a long grace: it stays `cancelling` across the takeover until let go.
    (projects.t.definitions as Record<string, object>).patient = {
      '1': {
        image: TEST_IMAGE,
        command: ['sh', '-c', `trap '' TERM; ${HOLD}`],
        stop_grace_seconds: 120,
      },
    };
    const settings = {
      store: { type: 'postgres', url },
      projects,
      max_running: 4 * perState,
      reconcile_interval_seconds: 1,
      instance_timeout_seconds: INSTANCE_TIMEOUT_S,
    };
    // The stale owner freezes itself right after claiming the jobs meant for `starting` (between
    // the claim's commit and the engine's create), once the test has made the arming file.
    const armFile = join(scratch, 'arm');
    const stale = await startService(settings, undefined, {
      env: {
        JOBDECK_FAILPOINT: 'after-move-to-starting',
        JOBDECK_FAILPOINT_ACTION: 'freeze',
        JOBDECK_FAILPOINT_ARMED_BY: armFile,
      },
    });
    services.push(stale);
    const post = (extra: object) => submit(stale, { job_queue: 't::fenced', ...extra });

    const running: string[] = [];
    const cancelling: string[] = [];
    for (let i = 0; i < perState; i += 1) {
      running.push(
        await post({ job_definition: 't::sh:1', container_cmd_parameter: { script: HOLD } }),
      );
      cancelling.push(await post({ job_definition: 't::patient:1' }));
    }
    for (const id of [...running, ...cancelling]) await waitForState(stale, id, 'running');
    for (const id of cancelling) {
      expect((await stale.request('POST', `/v1/client/job/${id}/cancel`)).status).toBe(202);
      await waitForState(stale, id, 'cancelling');
    }
    // Due together a moment from now, so one claim takes them all; then the instance freezes.
    writeFileSync(armFile, '');
    const dueAt = Date.now() / 1000 + 2;
    const starting: string[] = [];
    for (let i = 0; i < perState; i += 1) {
      starting.push(
        await post({
          job_definition: 't::sh:1',
          container_cmd_parameter: { script: 'echo done' },
          schedule_at: dueAt,
        }),
      );
    }
    await until('the stale owner froze at its claim', async () => isFrozen(stale.pid()));
    const staleId = (
      await db.query<{ owner: string }>('SELECT owner FROM jobs WHERE id = $1', [running[0]])
    ).rows[0]!.owner;
    const seqAtFreeze = await count('SELECT coalesce(max(seq), 0) AS n FROM job_transitions', []);
    const frozenAt = Date.now();
    const heldAtFreeze = async (states: JobState[]) =>
      count('SELECT count(*) AS n FROM jobs WHERE owner = $1 AND state = ANY($2)', [
        staleId,
        states,
      ]);
    const { rows: heldRows } = await db.query<{ id: string }>(
      'SELECT id FROM jobs WHERE owner = $1 AND state = ANY($2) ORDER BY id',
      [staleId, SLOT_STATES],
    );
    const heldByStale = heldRows.map((row) => row.id);
    const inStarting = await heldAtFreeze(['starting']);
    expect(inStarting).toBeGreaterThanOrEqual(1);
    expect(await heldAtFreeze(['running'])).toBe(perState);
    expect(await heldAtFreeze(['cancelling'])).toBe(perState);

    // The survivor: it takes the frozen one's jobs over once its heartbeat is past the timeout.
    const survivor = await startService(settings);
    services.push(survivor);
    await until(
      'the survivor took over every job',
      async () => (await heldAtFreeze(SLOT_STATES)) === 0,
    );
    const takeoverMs = Date.now() - frozenAt;
    const all = [...running, ...cancelling, ...starting];
    const ended = () =>
      count('SELECT count(*) AS n FROM jobs WHERE id = ANY($1) AND state = ANY($2)', [
        all,
        FINAL_STATES,
      ]);
    // The survivor runs the claimed jobs to their end (and removes their containers) while the
    // stale owner is still frozen; the held ones run on, the survivor's now.
    await until(
      'the survivor ended the claimed jobs',
      async () =>
        (await count('SELECT count(*) AS n FROM jobs WHERE id = ANY($1) AND state = ANY($2)', [
          starting,
          FINAL_STATES,
        ])) === starting.length,
    );

    // Thawed: it goes on from where it stopped (its launch of the claimed jobs, its passes).
    const thawedAt = Date.now();
    process.kill(stale.pid(), 'SIGCONT');
    await until(
      'the thawed instance beat again',
      async () =>
        (await count('SELECT heartbeat_at AS n FROM instances WHERE id = $1', [staleId])) >=
        thawedAt,
    );
    // Its passes after the thaw: time to act on whatever it still thinks it holds. Then the
    // held jobs are let go: the survivor records their ends.
    await sleep(3000);
    await until(
      'the survivor ended every job',
      async () => {
        release([...running, ...cancelling]);
        return (await ended()) === all.length;
      },
      60_000,
    );

    const staleMoves = await db.query<{ job_id: string; to_state: string }>(
      'SELECT job_id, to_state FROM job_transitions WHERE moved_by = $1 AND seq > $2',
      [staleId, seqAtFreeze],
    );
    expect(staleMoves.rows).toEqual([]);
    const startsByJob = await starts.byJob();
    expect(all.filter((id) => startsByJob.get(id) !== 1)).toEqual([]);
    const { rows: finals } = await db.query<{ job_id: string; n: string }>(
      `SELECT job_id, count(*) AS n FROM job_transitions
        WHERE job_id = ANY($1) AND to_state = ANY($2) GROUP BY job_id`,
      [all, FINAL_STATES],
    );
    expect(finals.filter((row) => row.n === '1')).toHaveLength(all.length);
    const { rows: states } = await db.query<{ id: string; state: string }>(
      'SELECT id, state FROM jobs WHERE id = ANY($1)',
      [all],
    );
    const stateOf = new Map(states.map((row) => [row.id, row.state]));
    expect([...running, ...starting].map((id) => stateOf.get(id))).toEqual(
      [...running, ...starting].map(() => 'completed'),
    );
    expect(cancelling.map((id) => stateOf.get(id))).toEqual(cancelling.map(() => 'cancelled'));
    // It said once that it had been silent too long, and once for each job it held that it
    // was leaving it (launching, following or stopping it) to the survivor.
    expect(stale.output().match(/silent past the instance timeout/g)).toHaveLength(1);
    const left = stale
      .output()
      .split('\n')
      .filter((line) => line.includes('this instance lost a job to another'));
    expect(left).toHaveLength(heldByStale.length);
    expect(heldByStale.filter((id) => !left.some((line) => line.includes(id)))).toEqual([]);
    // And it serves again: a job submitted to it runs.
    const after = await submit(stale, {
      job_definition: 't::sh:1',
      job_queue: 't::fenced',
      container_cmd_parameter: { script: 'echo after' },
    });
    await waitForState(stale, after, 'completed');

    recordFigure(
      `2 instances on PostgreSQL: one frozen past the timeout holding ${perState} running, ${perState} cancelling and ${inStarting} starting jobs, then thawed`,
      `taken over ${takeoverMs} ms after the freeze was seen (instance timeout ${INSTANCE_TIMEOUT_S} s, from its last beat); after the thaw 0 moves by the stale owner, ${all.length} of ${all.length} ended once with 1 container start each; it left each of its ${left.length} jobs with one log line`,
    );
  });
});
