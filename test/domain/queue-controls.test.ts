import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { QueueControls } from '../../server/jobs/queue-controls';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { LocalSignals } from '../../server/store/local-signals';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

// No reconciler pass comes to the rescue: what changes, a change or its signal changed.
const NO_PASS_MS = 600_000;
const QUEUE = 't::default';

describe('queue controls', () => {
  it('a paused queue accepts jobs and starts none, saying why; resumed, they start', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    const paused = await domain.system.controls.change(
      't',
      QUEUE,
      { paused: { reason: 'bad release 4.2' } },
      'key-1',
    );
    expect(paused).toMatchObject({ paused: true, pausedReason: 'bad release 4.2' });
    expect(paused.changed).toMatchObject({ by: 'key-1' });
    const id = await domain.submit();
    const waiting = await domain.waitFor(id, 'runnable');
    expect(waiting.systemNote).toBe('waiting: queue t::default is paused (bad release 4.2)');
    await new Promise((r) => setTimeout(r, 200));
    expect((await domain.system.service.detail('t', id)).state).toBe('runnable');

    await domain.system.controls.change('t', QUEUE, { paused: false }, 'key-1');
    await domain.waitFor(id, 'running', 20_000);
  });

  it('a lower max_running holds the others back with their place in line; a higher one starts them at once', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    await domain.system.controls.change('t', QUEUE, { maxRunning: 1 }, 'key-1');
    const ids = await Promise.all([1, 2, 3].map(() => domain.submit()));
    await domain.waitFor(ids[0]!, 'running', 20_000);
    const third = await domain.waitFor(ids[2]!, 'runnable');
    expect(third.systemNote).toBe(
      'waiting for a slot: 2nd of 2 waiting in queue t::default; 1 of 1 running in queue t::default',
    );
    // The list counts once for many jobs: the slots alone.
    const listed = await domain.system.reads.list({ project: 't', limit: 10 });
    expect(listed.find((job) => job.id === ids[2])?.systemNote).toBe(
      'waiting for a slot: 1 of 1 running in queue t::default',
    );

    await domain.system.controls.change('t', QUEUE, { maxRunning: 3 }, 'key-1');
    for (const id of ids) await domain.waitFor(id, 'running', 20_000);
    const [overview] = await domain.system.reads.queues('t', QUEUE);
    expect(overview?.queue).toMatchObject({ maxRunning: 3, paused: false });
    expect(overview?.queue.settings.maxRunning).toBe(4);
  });

  it('refuses a max_running above the ceiling and a queue of another project, naming the field', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    // The ceiling defaults to the larger of the queue's and the service's max_running (16).
    await expect(
      domain.system.controls.change('t', QUEUE, { maxRunning: 17 }, 'key-1'),
    ).rejects.toMatchObject({
      kind: 'invalid',
      message: expect.stringMatching(/^max_running: must be at most 16/) as unknown,
    });
    await expect(
      domain.system.controls.change('other', QUEUE, { paused: false }, 'key-1'),
    ).rejects.toMatchObject({
      kind: 'not-found',
      message: 'queue: no queue "t::default" in this project',
    });
    expect(domain.system.controls.liveInProject('t', QUEUE)).toMatchObject({
      maxRunning: 4,
      changed: null,
    });
  });

  it('every instance on the store obeys a change made on another, at once', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    const other = await domain.join('host-b');
    await domain.system.controls.change('t', QUEUE, { paused: { reason: null } }, 'key-1');
    await expect
      .poll(() => other.controls.liveInProject('t', QUEUE).paused, { timeout: 1000 })
      .toBe(true);
    const { id } = await other.service.submit(
      't',
      { job_definition: 't::run:1', job_queue: QUEUE },
      'key:test',
    );
    await new Promise((r) => setTimeout(r, 200));
    expect((await other.service.detail('t', id)).state).toBe('runnable');

    await other.controls.change('t', QUEUE, { paused: false }, 'key-2');
    await domain.waitFor(id, 'running', 20_000);
  });

  it('a pause outlives a restart: the store holds it, not the configuration', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    await domain.system.controls.change('t', QUEUE, { paused: { reason: 'maintenance' } }, 'k');
    await domain.restart();
    expect(domain.system.controls.liveInProject('t', QUEUE)).toMatchObject({
      paused: true,
      pausedReason: 'maintenance',
    });
    const id = await domain.submit();
    expect((await domain.waitFor(id, 'runnable')).systemNote).toBe(
      'waiting: queue t::default is paused (maintenance)',
    );
  });

  it('without the API (extensions off) the configuration rules: what the store kept is undone at start', async () => {
    domain = await startDomain(new FakeRuntime(), { reconcileIntervalMs: NO_PASS_MS });
    await domain.system.controls.change(
      't',
      QUEUE,
      { paused: { reason: 'x' }, maxRunning: 2 },
      'k',
    );
    const controls = (configRules: boolean) =>
      new QueueControls({
        store: domain.queueControls,
        catalog: domain.catalog(),
        signals: new LocalSignals(),
        logger: pino({ level: 'silent' }),
        configRules,
      });
    const withApi = controls(false);
    await withApi.start();
    expect(withApi.liveInProject('t', QUEUE)).toMatchObject({ paused: true, maxRunning: 2 });
    const withoutApi = controls(true);
    await withoutApi.start();
    expect(withoutApi.liveInProject('t', QUEUE)).toMatchObject({
      paused: false,
      maxRunning: 4,
      changed: { by: 'configuration' },
    });
  });
});
