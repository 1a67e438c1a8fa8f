import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canMove } from '../../server/jobs/state-machine';
import { ContainerStarts } from '../support/engine-events';
import { startService, testProjects, type TestService } from '../support/service';
import { detail, statesOf, submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

/**
 * The process dies (kill -9, JOBDECK_FAILPOINT=in-move-batch) while a batch of several jobs'
 * moves is being committed: after the restart each job either moved with its transition or
 * not at all, so every history is a chain of legal moves ending in the job's state, no job is
 * lost, and each container started once. With JOBDECK_TEST_STORE=postgres, on PostgreSQL.
 */
const JOBS = budget({ ci: 8, full: 16 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const scratch = mkdtempSync(join(tmpdir(), 'jobdeck-move-batch-'));
const starts = new ContainerStarts();
let service: TestService | undefined;

beforeAll(() => starts.started());
afterAll(async () => {
  starts.stop();
  await service?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('a kill while a batch of moves is committed', () => {
  it(`${JOBS} running jobs cancelled at once: each moved with its transition or not at all`, async () => {
    const projects = testProjects();
    (projects.t.queues as Record<string, object>).default = { max_running: JOBS };
    // Armed once every job runs: the launches' own moves may share a batch too.
    const armed = join(scratch, 'armed');
    service = await startService(
      { max_running: JOBS, projects, reconcile_interval_seconds: 0.5 },
      undefined,
      { env: { JOBDECK_FAILPOINT: 'in-move-batch', JOBDECK_FAILPOINT_ARMED_BY: armed } },
    );
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i += 1)
      ids.push(await submit(service, { job_definition: 't::sleep:1' }));
    for (const id of ids) await waitForState(service, id, 'running', 60_000);
    writeFileSync(armed, '');
    // Asked for together, the cancels' moves (running → cancelling) share batches; the first
    // batch of several kills the process before its commit. Answers may never come.
    const cancel = (id: string) =>
      service!.request('POST', `/v1/client/job/${id}/cancel`).catch(() => undefined);
    await Promise.all(ids.map(cancel));
    await Promise.race([
      service.exited(),
      sleep(30_000).then(() => {
        throw new Error('no batch of several moves was ever committed (the fail point)');
      }),
    ]);
    await service.restart();

    const atRestart = await Promise.all(ids.map(async (id) => (await detail(service!, id)).state));
    for (const state of atRestart) expect(['running', 'cancelling', 'cancelled']).toContain(state);
    // A cancel that died with the batch is asked again (Cancel Job is idempotent).
    for (const id of ids) await service.request('POST', `/v1/client/job/${id}/cancel`);
    for (const id of ids) await waitForState(service, id, 'cancelled', 60_000);
    const startsByJob = await starts.byJob();
    for (const id of ids) {
      expect(startsByJob.get(id)).toBe(1);
      const history = await statesOf(service, id);
      expect(history.slice(0, 4)).toEqual(['submitted', 'runnable', 'starting', 'running']);
      expect(history.at(-1)).toBe('cancelled');
      // A move without its transition would leave a gap: two states no legal move joins.
      for (let step = 1; step < history.length; step += 1) {
        expect(canMove(history[step - 1]!, history[step]!), history.join('→')).toBe(true);
      }
    }
    const moved = atRestart.filter((state) => state !== 'running').length;
    recordFigure(
      'kill -9 in a batch of moves',
      `${moved} of ${JOBS} cancels committed before the kill, ${JOBS - moved} not at all; all ${JOBS} cancelled after the restart, each started once, each history a chain of legal moves`,
    );
  });
});
