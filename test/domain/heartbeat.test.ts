import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { EngineHealth } from '../../server/jobs/engine-health';
import type { Membership } from '../../server/jobs/membership';
import type { JobStore } from '../../server/jobs/ports';
import { Reconciler } from '../../server/jobs/reconciler';
import type { Runner } from '../../server/jobs/runner';
import { KeyedSerial } from '../../server/jobs/serial';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the reconciler', () => {
  it('beats the heartbeat on its own timer, while a pass waits on an engine slow to answer', async () => {
    const logger = pino({ level: 'silent' });
    const engine = new FakeRuntime();
    const answer = engine.holdPings();
    let beats = 0;
    const membership = {
      beat: async () => {
        beats += 1;
      },
      takeOverLost: async () => new Set<string>(),
    } as unknown as Membership;
    const reconciler = new Reconciler({
      runtime: engine,
      store: { jobsInStates: async () => [] } as unknown as JobStore,
      runner: {} as Runner,
      health: new EngineHealth(logger, 1000, 10_000),
      locks: new KeyedSerial(),
      membership,
      logger,
      intervalMs: 20,
      afterPass: () => {},
      launchGiven: () => {},
    });
    // The first pass waits on the ping for as long as the engine does not answer.
    const started = reconciler.start();
    await sleep(300);
    // A pass held this long is many instance timeouts of a slow engine: the instance is alive.
    expect(beats).toBeGreaterThanOrEqual(5);
    answer();
    await started;
    await reconciler.stop();
    const afterStop = beats;
    await sleep(100);
    expect(beats).toBe(afterStop);
  });
});
