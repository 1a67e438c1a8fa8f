import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Membership } from '../../server/jobs/membership';
import { JobLostError } from '../../server/jobs/model';
import type {
  InstanceRecord,
  InstanceRegistry,
  JobStore,
  TakeOverParams,
} from '../../server/jobs/ports';
import { INSTANCE_TIMEOUT_MS, startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>> | undefined;
afterEach(async () => {
  await domain?.close();
  domain = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('several instances on one store, on a fake engine', () => {
  it('never run more than the queue allows between them, and start each job once', async () => {
    domain = await startDomain();
    const d = domain;
    await d.join('host-b');
    await d.join('host-c');
    const ids = await Promise.all(Array.from({ length: 12 }, () => d.submit()));
    let mostHoldingSlots = 0;
    for (;;) {
      const holding = await d.store.jobsInStates(['starting', 'running', 'cancelling']);
      mostHoldingSlots = Math.max(mostHoldingSlots, holding.length);
      for (const id of ids) {
        if (d.engine.workload(id)?.status === 'running') d.engine.exit(id, 0);
      }
      if ((await d.store.jobsInStates(['completed'])).length === ids.length) break;
      await sleep(5);
    }
    expect(mostHoldingSlots).toBeLessThanOrEqual(4); // the queue's max_running, across instances
    for (const id of ids) expect(d.engine.launches.filter((l) => l === id)).toHaveLength(1);
  });

  it('takes over a lost instance’s jobs: adopts what runs, errors what is gone with it', async () => {
    domain = await startDomain();
    const running = await domain.submit();
    const gone = await domain.submit();
    await domain.waitFor(running, 'running');
    await domain.waitFor(gone, 'running');
    const lost = domain.system;
    const survivor = await domain.join('host-b');
    expect((await domain.store.getJob(running))!.owner).toBe(lost.identity.id);

    await lost.crash();
    domain.engine.vanish(gone);
    const goneJob = await domain.waitFor(gone, 'error', INSTANCE_TIMEOUT_MS * 20);
    expect(goneJob.systemNote).toBe(
      'the Jobdeck instance running it stopped, and its container is gone, so its outcome is unknown; submit it again',
    );
    expect((await domain.store.getJob(running))!.owner).toBe(survivor.identity.id);
    domain.engine.exit(running, 0);
    await domain.waitFor(running, 'completed');
    expect(domain.engine.launches.filter((l) => l === running)).toHaveLength(1);
  });

  it('lets a cancel accepted by one instance reach the container another one runs', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const other = await domain.join('host-b');
    await other.service.cancel('t', id, 'key:test');
    const job = await domain.waitFor(id, 'cancelled');
    expect(job.systemNote).toBe('cancelled on request; the container exited with code 143');
    expect(domain.engine.stops.map((s) => s.jobId)).toEqual([id]);
  });
});

describe('an instance taken over while alive (a late heartbeat), and jobs that must not stall', () => {
  it('changes nothing of a job it lost: its moves as owner are refused once another owns it', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const late = domain.system;
    // What the late instance's runner saw, and would act on, before the takeover.
    const seen = (await domain.store.getJob(id))!;
    const beatAgain = late.lateHeartbeat();
    const other = await domain.join('host-b');
    for (const deadline = Date.now() + 5000; ; await sleep(10)) {
      if ((await domain.store.getJob(id))!.owner === other.identity.id) break;
      if (Date.now() > deadline) throw new Error('never taken over');
    }
    beatAgain();
    // Refused for its owner, told apart from a state conflict.
    await expect(
      late.machine.move(seen, 'error', 'lost', undefined, { owned: true }),
    ).rejects.toBeInstanceOf(JobLostError);
    expect((await domain.store.getJob(id))!.state).toBe('running');
    // The new owner's moves go through.
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed');
    expect(domain.engine.launches.filter((l) => l === id)).toHaveLength(1);
  });

  it('never leaves a job in starting behind a launch stuck with the engine: it is settled from what the engine reports', async () => {
    domain = await startDomain(undefined, { launchNoticedAfterMs: 300 });
    const release = domain.engine.holdLaunches();
    const id = await domain.submit();
    await domain.waitFor(id, 'starting');
    // Past the bound the reconciler settles it: no container was made, so it waits again.
    for (const deadline = Date.now() + 5000; ; await sleep(20)) {
      if ((await domain.history(id)).includes('runnable', 2)) break;
      if (Date.now() > deadline) throw new Error(`still ${(await domain.store.getJob(id))!.state}`);
    }
    release();
    await domain.waitFor(id, 'running');
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed');
    expect(await domain.history(id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'runnable',
      'starting',
      'running',
      'completed',
    ]);
  });
});

describe('an instance is lost', () => {
  const now = 1_000_000;
  const me = { id: 'me', host: 'host-a', pid: 1 };
  const record = (overrides: Partial<InstanceRecord>): InstanceRecord => ({
    id: 'other',
    host: 'host-b',
    pid: 2,
    startedAt: now - 60_000,
    heartbeatAt: now,
    stoppedAt: null,
    ...overrides,
  });

  async function takenFrom(instance: InstanceRecord, alivePids: number[] = [1, 2]) {
    const taken: string[] = [];
    const registry: InstanceRegistry = {
      register: async () => {},
      heartbeat: async () => {},
      leave: async () => {},
      forget: async () => {},
      list: async () => [{ ...me, startedAt: now, heartbeatAt: now, stoppedAt: null }, instance],
    };
    const store = {
      takeOver: async ({ from }: TakeOverParams) => {
        taken.push(String(from));
        return [];
      },
    } as unknown as JobStore;
    const membership = new Membership(
      registry,
      store,
      me,
      10_000,
      (pid) => alivePids.includes(pid),
      pino({ level: 'silent' }),
    );
    await membership.takeOverLost(now);
    return taken;
  }

  it('when it stopped, went silent past the timeout, or was a process of this host that is gone', async () => {
    expect(await takenFrom(record({}))).toEqual([]);
    expect(await takenFrom(record({ stoppedAt: now - 1 }))).toEqual(['other']);
    expect(await takenFrom(record({ heartbeatAt: now - 10_001 }))).toEqual(['other']);
    expect(await takenFrom(record({ heartbeatAt: now - 9_999 }))).toEqual([]);
    // On this host with its process gone: lost at once, without waiting out the timeout.
    expect(await takenFrom(record({ host: 'host-a' }), [1])).toEqual(['other']);
    // On another host the same pid says nothing.
    expect(await takenFrom(record({ host: 'host-b' }), [1])).toEqual([]);
  });
});

describe('an instance that was silent itself (frozen, paused, starved)', () => {
  const now = 1_000_000;
  const me = { id: 'me', host: 'host-a', pid: 1 };

  it('doubts its ownership once its last beat is older than half the timeout, and says once that it was silent past it', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    const registry: InstanceRegistry = {
      register: async () => {},
      heartbeat: async () => {},
      leave: async () => {},
      forget: async () => {},
      list: async () => [],
    };
    const store = { takeOver: async () => [] } as unknown as JobStore;
    const membership = new Membership(registry, store, me, 10_000, () => true, logger);
    expect(membership.ownershipInDoubt(now)).toBe(true); // not joined yet
    await membership.join(now);
    expect(membership.ownershipInDoubt(now + 5_000)).toBe(false);
    expect(membership.ownershipInDoubt(now + 5_001)).toBe(true);
    await membership.beat(now + 4_000);
    expect(warnings).toEqual([]);
    // 10,001 ms after the last beat: another instance may have taken its jobs over by now.
    await membership.beat(now + 14_001);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({
      lateByMs: 10_001,
      msg: expect.stringMatching(/silent past the instance timeout/),
    });
    expect(membership.ownershipInDoubt(now + 14_002)).toBe(false);
  });
});
