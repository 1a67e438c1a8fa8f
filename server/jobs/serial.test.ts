import { afterEach, describe, expect, it, vi } from 'vitest';
import { coalesced, throttled } from './serial';

/** A task whose runs are counted, each held open until `releaseNext` lets the oldest one end. */
function heldTask() {
  const state = { runs: 0, open: 0, mostOpen: 0, releases: [] as (() => void)[] };
  const task = async () => {
    state.runs += 1;
    state.open += 1;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    await new Promise<void>((release) => state.releases.push(release));
    state.open -= 1;
  };
  const releaseNext = async () => {
    state.releases.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { state, task, releaseNext };
}

describe('coalesced', () => {
  it('runs once more, once, for any number of calls during a run, never two at a time', async () => {
    const { state, task, releaseNext } = heldTask();
    const run = coalesced(task);
    const first = run();
    for (let i = 0; i < 5; i += 1) await run();
    expect(state.runs).toBe(1);
    await releaseNext();
    expect(state.runs).toBe(2);
    await releaseNext();
    await first;
    expect(state.runs).toBe(2);
    expect(state.mostOpen).toBe(1);
  });

  it('starts afresh after a run has ended', async () => {
    const { state, task, releaseNext } = heldTask();
    const run = coalesced(task);
    const first = run();
    await releaseNext();
    await first;
    const second = run();
    expect(state.runs).toBe(2);
    await releaseNext();
    await second;
  });

  it('stops going round when goOn says so', async () => {
    const { state, task, releaseNext } = heldTask();
    let stopped = false;
    const run = coalesced(task, () => !stopped);
    const first = run();
    void run();
    stopped = true;
    await releaseNext();
    await first;
    expect(state.runs).toBe(1);
  });

  it('gives the error to the call that started the run, and can run again after it', async () => {
    let fail = true;
    let runs = 0;
    const run = coalesced(async () => {
      runs += 1;
      await Promise.resolve();
      if (fail) throw new Error('the store is away');
    });
    const first = run();
    await expect(run()).resolves.toBeUndefined();
    await expect(first).rejects.toThrow('the store is away');
    expect(runs).toBe(1);
    fail = false;
    await expect(run()).resolves.toBeUndefined();
    expect(runs).toBe(2);
  });
});

describe('throttled', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs a lone call on the next turn, then folds the calls of an interval into one at its end', () => {
    vi.useFakeTimers();
    let runs = 0;
    const signal = throttled(() => (runs += 1), 50);
    signal();
    vi.advanceTimersByTime(0);
    expect(runs).toBe(1);
    for (let i = 0; i < 10; i += 1) {
      signal();
      vi.advanceTimersByTime(4);
    }
    // 40 ms after the first run: the ten calls wait for the interval's end, as one.
    expect(runs).toBe(1);
    vi.advanceTimersByTime(10);
    expect(runs).toBe(2);
    // Past the interval with nothing asked: the next call runs at once again.
    vi.advanceTimersByTime(100);
    signal();
    vi.advanceTimersByTime(0);
    expect(runs).toBe(3);
  });

  it('drops the waiting call when cancelled', () => {
    vi.useFakeTimers();
    let runs = 0;
    const signal = throttled(() => (runs += 1), 50);
    signal();
    signal.cancel();
    vi.advanceTimersByTime(100);
    expect(runs).toBe(0);
  });
});
