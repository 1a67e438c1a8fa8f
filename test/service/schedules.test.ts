import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule } from '../../contract';
import { waitForState } from '../support/jobs';
import { sharedStoreSettings } from '../support/postgres';
import { startService, testProjects, type TestService } from '../support/service';

/**
 * Recurring schedules over HTTP, on real containers: the list's answer, pause and resume, the
 * refusals, and on PostgreSQL two service processes sharing one database. The rules (overlap,
 * missed times, one job per firing across instances) are test/domain/schedules.test.ts's, on the
 * fake engine with the clock moved by the test.
 */
let service: TestService;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function scheduledProjects(schedules: Record<string, object>) {
  const projects = testProjects();
  Object.assign(projects.t, { schedules });
  return projects;
}

const EVERY_2S = '*/2 * * * * *';

beforeAll(async () => {
  service = await startService({
    reconcile_interval_seconds: 1,
    projects: scheduledProjects({
      every2: {
        job_definition: 't::echo:1',
        job_queue: 't::default',
        cron: EVERY_2S,
        labels: { origin: 'every2' },
      },
      held: {
        job_definition: 't::echo:1',
        job_queue: 't::default',
        cron: EVERY_2S,
        timezone: 'Europe/Paris',
        paused: true,
      },
    }),
  });
});
afterAll(() => service?.stop());

async function schedules(on = service): Promise<Map<string, Schedule>> {
  const response = await on.request('GET', '/v1/client/schedules');
  expect(response.status).toBe(200);
  const { items } = response.body.data as { items: Schedule[] };
  return new Map(items.map((s) => [s.name, s]));
}

const scheduleOf = async (name: string) => (await schedules()).get(name)!;

/** Waits until the schedule has at least `count` firings; returns them, newest first. */
async function firings(name: string, count: number, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { recent } = await scheduleOf(name);
    if (recent.length >= count) return recent;
    if (Date.now() > until) throw new Error(`${name}: ${recent.length} firings, not ${count}`);
    await sleep(100);
  }
}

describe('recurring schedules', () => {
  it('fires at each time one job named after the schedule and the time, and lists what comes next', async () => {
    // A loaded machine may take more than 2 s to run an echo: then a firing is skipped (the
    // default overlap), which is recorded too. Wait for two that submitted a job.
    let recent = await firings('every2', 2);
    for (const until = Date.now() + 20_000; recent.filter((f) => f.job_id).length < 2;) {
      if (Date.now() > until) throw new Error('every2: fewer than two firings submitted a job');
      await sleep(200);
      recent = (await scheduleOf('every2')).recent;
    }
    for (const firing of recent) {
      expect(Date.parse(firing.fire_at) % 2000).toBe(0);
      if (firing.job_id === null) {
        expect(firing.note).toMatch(/^skipped: the previous firing's job .+ is still \w+/);
        continue;
      }
      expect(firing.job_name).toBe(
        `every2-${firing.fire_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}`,
      );
      await waitForState(service, firing.job_id, 'completed');
    }
    expect(Date.parse(recent[0]!.fire_at) - Date.parse(recent[1]!.fire_at)).toBe(2000);
    // Its jobs carry the schedule's labels: the list finds them by label.
    const labelled = await service.request('GET', '/v1/client/jobs?label=origin=every2&limit=200');
    const ids = (labelled.body.data as { items: { id: string }[] }).items.map((job) => job.id);
    for (const firing of recent.filter((f) => f.job_id !== null))
      expect(ids).toContain(firing.job_id);
    const listed = await scheduleOf('every2');
    expect(listed).toMatchObject({
      job_definition: 't::echo:1',
      job_queue: 't::default',
      cron: EVERY_2S,
      timezone: 'UTC',
      overlap: 'skip',
      missed: 'run_once',
      paused: false,
      paused_reason: null,
      labels: { origin: 'every2' },
    });
    expect(listed.next_firings).toHaveLength(5);
    const times = listed.next_firings.map(Date.parse);
    expect(times[0]).toBeGreaterThan(Date.now() - 1000);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([2000, 2000, 2000, 2000]);
  });

  it('pauses with a reason (firing nothing meanwhile) and resumes from the next time on', async () => {
    const paused = await service.request('POST', '/v1/client/schedules/every2/pause', {
      reason: 'storage maintenance',
    });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({
      paused: true,
      paused_reason: 'storage maintenance',
      next_firings: [],
    });
    const before = (await scheduleOf('every2')).recent[0]!.fire_at;
    await sleep(4500);
    expect((await scheduleOf('every2')).recent[0]!.fire_at).toBe(before);
    const resumed = await service.request('POST', '/v1/client/schedules/every2/resume');
    expect(resumed.body.data).toMatchObject({ paused: false, paused_reason: null });
    const after = await firings('every2', 1).then(async () => {
      for (const until = Date.now() + 6000; Date.now() < until; await sleep(100)) {
        const [newest] = (await scheduleOf('every2')).recent;
        if (newest!.fire_at !== before) return newest!;
      }
      throw new Error('never fired after resume');
    });
    // Nothing of the paused stretch was run.
    expect(Date.parse(after.fire_at)).toBeGreaterThan(Date.parse(before) + 4000);
    expect((await scheduleOf('held')).paused).toBe(true);
    expect((await scheduleOf('held')).recent).toEqual([]);
  });

  it('refuses an unknown schedule (404) and a bad reason (400), naming the field', async () => {
    const unknown = await service.request('POST', '/v1/client/schedules/nope/pause');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      ok: false,
      message: 'name: no schedule "nope" in this project',
    });
    const long = await service.request('POST', '/v1/client/schedules/held/pause', {
      reason: 'x'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ ok: false, message: 'reason: must be at most 200 characters' });
    const otherKey = await service.cli('keys', 'create', '--project', 'other', '--role', 'admin');
    const theirs = await service.request('GET', '/v1/client/schedules', undefined, otherKey);
    expect(theirs.body.data).toEqual({ items: [] });
    const notTheirs = await service.request(
      'POST',
      '/v1/client/schedules/every2/pause',
      undefined,
      otherKey,
    );
    expect(notTheirs.status).toBe(404);
  });
});

describe.skipIf(process.env.JOBDECK_TEST_STORE !== 'postgres')(
  'a schedule on two instances sharing one PostgreSQL store',
  () => {
    it('fires each time once: one job per firing, whichever instance fired it', async () => {
      const shared = {
        ...(await sharedStoreSettings()),
        reconcile_interval_seconds: 1,
        projects: scheduledProjects({
          each: {
            job_definition: 't::echo:1',
            job_queue: 't::default',
            cron: '* * * * * *',
            overlap: 'allow',
          },
        }),
      };
      const startedAt = Date.now();
      const a = await startService(shared);
      const b = await startService(shared);
      try {
        await sleep(6000);
        const { recent } = (await schedules(a)).get('each')!;
        expect(recent.length).toBeGreaterThanOrEqual(4);
        const jobs = await a.request('GET', '/v1/client/jobs?name=each-&limit=100');
        const items = (jobs.body.data as { items: { id: string; name: string }[] }).items;
        const names = items.map((j) => j.name);
        // One job per firing: no firing time twice, whichever instance fired it ...
        expect(new Set(names).size).toBe(names.length);
        // ... every recorded firing has its job ...
        const ids = new Set(items.map((j) => j.id));
        expect(recent.every((f) => f.job_id !== null && ids.has(f.job_id))).toBe(true);
        // ... and no more jobs than whole seconds went by (the list reads after the firings, so
        // later firings may have added jobs; `recent` shows only the newest 20).
        const seconds = Math.ceil((Date.now() - startedAt) / 1000);
        expect(names.length).toBeLessThanOrEqual(seconds + 1);
      } finally {
        await b.stop();
        await a.stop();
      }
    });
  },
);
