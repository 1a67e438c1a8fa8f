import { describe, expect, it } from 'vitest';
import { EngineHealth } from './engine-health';
import type { Logger } from './ports';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('EngineHealth.status', () => {
  it('says reachable with dispatch running while the engine answers', () => {
    const health = new EngineHealth(quiet, 0, 10_000);
    health.markUp(1_000);
    expect(health.status(2_000)).toEqual({
      reachable: true,
      unreachableSince: null,
      dispatchPaused: false,
    });
  });

  it('says since when a down engine failed, with dispatch paused, until it answers again', () => {
    const health = new EngineHealth(quiet, 0, 10_000);
    health.markDown('connect ENOENT', 5_000);
    expect(health.status(6_000)).toEqual({
      reachable: false,
      unreachableSince: 5_000,
      dispatchPaused: true,
    });
    health.markUp(7_000);
    expect(health.status(7_500)).toMatchObject({ reachable: true, dispatchPaused: false });
  });

  it('counts a hanging engine unreachable since its last answer, without pausing dispatch', () => {
    const health = new EngineHealth(quiet, 0, 10_000);
    health.markUp(1_000);
    expect(health.status(11_001)).toEqual({
      reachable: false,
      unreachableSince: 1_000,
      dispatchPaused: false,
    });
  });
});
