import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FiringRecord } from '../../server/jobs/ports';
import { startDomain } from './harness';

/**
 * The rules of recurring schedules on the fake engine, with the clock moved by the test: a firing
 * at each time, what overlaps, what was missed while no instance ran, one job per firing however
 * many instances fire it. Only Date is faked (timers run in real time), so the scheduler's
 * backstop, the reconciler's pass every 50 ms, sees each new time at once. The service tier
 * (test/service/schedules) keeps what HTTP shows: the list's answer, pause and resume, refusals.
 */
let domain: Awaited<ReturnType<typeof startDomain>> | undefined;
afterEach(async () => {
  await domain?.close();
  domain = undefined;
  vi.useRealTimers();
});

const HOURLY = '0 * * * *';
const at = (time: string) => Date.parse(`2026-03-01T${time}Z`);
/** The clock at `time` on the test's day, running on from there. */
const clockAt = (time: string) => vi.setSystemTime(at(time));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = performance.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The schedule's firings, oldest first, once there are `count`. */
async function firings(name: string, count: number): Promise<FiringRecord[]> {
  const recent = await until(
    async () => {
      const views = await domain!.system.scheduler.list('t', 5, 50);
      return views.find((view) => view.settings.name === name)!.recent;
    },
    (recent) => recent.length >= count,
    `${count} firings of ${name}`,
  );
  return [...recent].reverse();
}

/** A firing as the test compares it: its time, the note, and its job's name (or none). */
const firing = (record: FiringRecord) => ({
  at: new Date(record.fireAt).toISOString().slice(11, 19),
  note: record.note,
  job: record.job?.name ?? null,
});

/**
 * Each read of the schedules' states waits for the reads of `count` instances: they judge what is
 * due from the same state, as instances ticking at once do, and fire the same time.
 */
function readTogether(count: number) {
  const schedules = domain!.schedules;
  const read = schedules.states.bind(schedules);
  let held: (() => void)[] = [];
  vi.spyOn(schedules, 'states').mockImplementation(async () => {
    const states = await read();
    await new Promise<void>((resolve) => {
      held.push(resolve);
      if (held.length < count) return;
      for (const release of held) release();
      held = [];
    });
    return states;
  });
}

/** How many firings the store turned away (recorded before, by another instance), as it goes. */
function firingsRefused(): () => number {
  const schedules = domain!.schedules;
  const fire = schedules.fire.bind(schedules);
  let refused = 0;
  vi.spyOn(schedules, 'fire').mockImplementation(async (firing) => {
    const result = await fire(firing);
    if (!result.fired) refused += 1;
    return result;
  });
  return () => refused;
}

// The file's first test opens and migrates the store: seconds on a loaded machine.
describe('recurring schedules', { timeout: 20_000 }, () => {
  it('fires at each time one job named after it and the time; overlap skips or cancels the previous', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    clockAt('09:59:30');
    domain = await startDomain(undefined, {
      schedules: {
        hourly: {
          job_definition: 't::run:1',
          job_queue: 't::default',
          cron: HOURLY,
          labels: { origin: 'hourly' },
        },
        swap: {
          job_definition: 't::run:1',
          job_queue: 't::default',
          cron: HOURLY,
          overlap: 'cancel_previous',
        },
      },
    });
    const views = await domain.system.scheduler.list('t', 3, 10);
    expect(
      views.map((view) => [view.settings.name, view.next.map((d) => d.toISOString())]),
    ).toEqual([
      [
        'hourly',
        ['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      ],
      [
        'swap',
        ['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      ],
    ]);
    expect(views.map((view) => view.recent)).toEqual([[], []]);

    clockAt('10:00:00.100');
    const [first] = await firings('hourly', 1);
    expect(firing(first!)).toEqual({ at: '10:00:00', note: null, job: 'hourly-20260301T100000Z' });
    const job = await domain.waitFor(first!.job!.id, 'running');
    expect(job).toMatchObject({ labels: { origin: 'hourly' }, submittedBy: 'schedule:t::hourly' });
    const [firstSwap] = await firings('swap', 1);
    await domain.waitFor(firstSwap!.job!.id, 'running');

    // The next time comes while both jobs run.
    clockAt('11:00:00.100');
    const [, skipped] = await firings('hourly', 2);
    expect(firing(skipped!)).toEqual({
      at: '11:00:00',
      note: `skipped: the previous firing's job hourly-20260301T100000Z (${first!.job!.id}) is still running (overlap: skip)`,
      job: null,
    });
    const [, replacing] = await firings('swap', 2);
    expect(firing(replacing!)).toEqual({
      at: '11:00:00',
      note: null,
      job: 'swap-20260301T110000Z',
    });
    expect((await domain.waitFor(firstSwap!.job!.id, 'cancelled')).systemNote).toMatch(
      /^cancelled on request/,
    );

    // Once the previous job has ended, the next time submits again.
    domain.engine.exit(first!.job!.id, 0);
    await domain.waitFor(first!.job!.id, 'completed');
    clockAt('12:00:00.100');
    const [, , third] = await firings('hourly', 3);
    expect(firing(third!)).toEqual({ at: '12:00:00', note: null, job: 'hourly-20260301T120000Z' });
    await domain.waitFor(third!.job!.id, 'running');
    for (const id of [first!.job!.id, third!.job!.id])
      expect(domain.engine.launches.filter((launched) => launched === id)).toHaveLength(1);
  });

  it('after a time no instance ran: the latest missed time runs once, is skipped, or runs as usual within its grace', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    clockAt('09:59:00');
    const every = {
      job_definition: 't::run:1',
      job_queue: 't::default',
      cron: HOURLY,
      overlap: 'allow',
    };
    domain = await startDomain(undefined, {
      schedules: {
        catchup: { ...every, missed_after_seconds: 60 },
        dropped: { ...every, missed: 'skip', missed_after_seconds: 60 },
        grace: { ...every, missed: 'skip', missed_after_seconds: 600 },
      },
    });
    // Down from before 10:00 until five minutes past 12:00: three times passed, none fired.
    await domain.restart(() => clockAt('12:05:00'));
    expect((await firings('catchup', 1)).map(firing)).toEqual([
      {
        at: '12:00:00',
        note: 'run late: its time passed while no instance ran (missed: run_once)',
        job: 'catchup-20260301T120000Z',
      },
    ]);
    expect((await firings('dropped', 1)).map(firing)).toEqual([
      {
        at: '12:00:00',
        note: 'skipped: its time passed while no instance ran (missed: skip)',
        job: null,
      },
    ]);
    // Five minutes late is within its ten: an ordinary firing.
    expect((await firings('grace', 1)).map(firing)).toEqual([
      { at: '12:00:00', note: null, job: 'grace-20260301T120000Z' },
    ]);

    // Then on as before, from the next time.
    clockAt('13:00:00.100');
    for (const name of ['catchup', 'dropped', 'grace']) {
      const [, next] = await firings(name, 2);
      expect(firing(next!)).toEqual({
        at: '13:00:00',
        note: null,
        job: `${name}-20260301T130000Z`,
      });
    }
  });

  it('submits one job per firing however many instances fire it at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    clockAt('09:59:00');
    domain = await startDomain(undefined, {
      schedules: {
        each: {
          job_definition: 't::run:1',
          job_queue: 't::default',
          cron: HOURLY,
          overlap: 'allow',
        },
      },
    });
    const instances = [domain.system, await domain.join('host-b'), await domain.join('host-c')];
    const refused = firingsRefused();
    readTogether(instances.length);
    const hours = ['10', '11', '12', '13', '14'];
    for (const [index, hour] of hours.entries()) {
      clockAt(`${hour}:00:00.100`);
      // Each instance fires the time at once, besides the reconciler's passes.
      for (const instance of instances) instance.scheduler.kick();
      const id = (await firings('each', index + 1))[index]!.job!.id;
      // Ended before the clock moves on by an hour, past the definition's timeout.
      await domain.waitFor(id, 'running');
      domain.engine.exit(id, 0);
      await domain.waitFor(id, 'completed');
    }
    const recorded = await firings('each', hours.length);
    expect(recorded.map(firing)).toEqual(
      hours.map((hour) => ({ at: `${hour}:00:00`, note: null, job: `each-20260301T${hour}0000Z` })),
    );
    const jobs = await domain.system.reads.list({ project: 't', namePrefix: 'each-', limit: 100 });
    expect(jobs.map((job) => job.id).sort()).toEqual(recorded.map((f) => f.job!.id).sort());
    for (const job of jobs)
      expect(domain.engine.launches.filter((launched) => launched === job.id)).toHaveLength(1);
    // They did fire the same times: the store turned the later ones away.
    expect(refused()).toBeGreaterThan(0);
  });
});
