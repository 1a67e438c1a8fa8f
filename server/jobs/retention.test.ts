import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { Catalog, type QueueSettings, type ScheduleSettings } from './catalog';
import type { AuditStore, RetentionStore } from './ports';
import { RetentionPruner } from './retention';

const queue = (ref: string, keepFinishedMs: number | null): QueueSettings => ({
  ref,
  project: 'p',
  maxRunning: 1,
  maxRunningCeiling: 1,
  placement: 'binpack',
  priority: 0,
  pausedAtStart: false,
  keepFinishedMs,
});

/** A store holding `waiting` jobs past their time per queue, deleted `limit` at a time. */
function storeWith(waiting: Record<string, number>, reclaimSteps: number[] = []) {
  const calls: { queue: string; before: number; limit: number }[] = [];
  const firings: { schedule: string; before: number; limit: number }[] = [];
  const countsForgotten: number[] = [];
  const keys: { before: number; limit: number }[] = [];
  const store: RetentionStore = {
    pruneFinished: async ({ queue, before, limit }) => {
      calls.push({ queue, before, limit });
      const deleted = Math.min(limit, waiting[queue] ?? 0);
      waiting[queue] = (waiting[queue] ?? 0) - deleted;
      return deleted;
    },
    pruneBulkActions: async () => 0,
    pruneIdempotencyKeys: async (batch) => {
      keys.push(batch);
      return 0;
    },
    pruneFirings: async ({ schedule, before, limit }) => {
      firings.push({ schedule, before, limit });
      return 0;
    },
    prunable: async (queue) => ({ jobs: waiting[queue] ?? 0, oldestFinishedAt: 1 }),
    reclaimSpace: async () => reclaimSteps.shift() ?? 0,
    forgetFinishedCounts: async (before) => {
      countsForgotten.push(before);
    },
  };
  return { store, calls, firings, countsForgotten, keys };
}

const logger = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });
const NOW = 1_800_000_000_000;

describe('RetentionPruner', () => {
  it('deletes each limited queue batch after batch until one comes short, never a queue kept forever', async () => {
    const { store, calls, firings, countsForgotten, keys } = storeWith(
      { 'p::a': 5, 'p::b': 2, 'p::keep': 9 },
      [8192, 4096],
    );
    const schedules = [
      { ref: 'p::nightly', queue: 'p::a' },
      { ref: 'p::archive', queue: 'p::keep' },
    ] as ScheduleSettings[];
    const catalog = new Catalog(
      [queue('p::a', 1000), queue('p::b', 60_000), queue('p::keep', null)],
      [],
      4,
      schedules,
    );
    const pruned: [string, number][] = [];
    const log = logger();
    const pruner = new RetentionPruner(store, catalog, log, {
      intervalMs: 60_000,
      batchSize: 2,
      onPruned: (q, jobs) => pruned.push([q, jobs]),
    });
    const result = await pruner.pass(NOW);
    expect(calls).toEqual([
      { queue: 'p::a', before: NOW - 1000, limit: 2 },
      { queue: 'p::a', before: NOW - 1000, limit: 2 },
      { queue: 'p::a', before: NOW - 1000, limit: 2 },
      // A full batch may have left more: one more read, which finds none.
      { queue: 'p::b', before: NOW - 60_000, limit: 2 },
      { queue: 'p::b', before: NOW - 60_000, limit: 2 },
    ]);
    // The firings that submitted nothing go after the time of their schedule's queue.
    expect(firings).toEqual([{ schedule: 'p::nightly', before: NOW - 1000, limit: 2 }]);
    // The overview's counts of the last day: what finished before it is never counted again.
    expect(countsForgotten).toEqual([NOW - 24 * 3_600_000]);
    // Idempotency-Keys carry their own end: those past it go, whatever the queues keep.
    expect(keys).toEqual([{ before: NOW, limit: 2 }]);
    expect(result).toEqual({
      pruned: [
        { queue: 'p::a', jobs: 5 },
        { queue: 'p::b', jobs: 2 },
      ],
      reclaimedBytes: 12_288,
    });
    expect(pruned).toEqual([
      ['p::a', 5],
      ['p::b', 2],
    ]);
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(log.info.mock.calls[0]![0]).toMatchObject({
      jobs: 7,
      queues: { 'p::a': 5, 'p::b': 2 },
      reclaimedBytes: 12_288,
    });
  });

  it('deletes audit events, ended deliveries, trend rollups and sessions in the same pass, a batch at a time', async () => {
    const { store } = storeWith({});
    const audit: number[] = [];
    const deliveries: { before: number; limit: number }[] = [];
    let endedDeliveries = 5;
    let sessionPrunes = 0;
    const rollups: string[] = [];
    const pruner = new RetentionPruner(store, new Catalog([queue('p::a', 1000)], [], 4), logger(), {
      intervalMs: 60_000,
      batchSize: 2,
      audit: {
        store: {
          prune: async ({ before }: { before: number }) => (audit.push(before), 0),
        } as unknown as AuditStore,
        keepMs: 90_000,
      },
      deliveries: {
        store: {
          pruneEnded: async ({ before, limit }) => {
            deliveries.push({ before, limit });
            const deleted = Math.min(limit, endedDeliveries);
            endedDeliveries -= deleted;
            return deleted;
          },
        },
        keepMs: 7_000,
      },
      trends: { pruneBefore: async (period, before) => (rollups.push(period), before) },
      sessions: { prune: async () => void sessionPrunes++ },
    });
    await pruner.pass(NOW);
    expect(audit).toEqual([NOW - 90_000]);
    expect(deliveries).toEqual([
      { before: NOW - 7_000, limit: 2 },
      { before: NOW - 7_000, limit: 2 },
      { before: NOW - 7_000, limit: 2 },
    ]);
    expect(endedDeliveries).toBe(0);
    expect(rollups).toEqual(['hour', 'day']);
    expect(sessionPrunes).toBe(1);
  });

  it('logs nothing and gives nothing back when nothing was past its time', async () => {
    const { store } = storeWith({}, [4096]);
    const log = logger();
    const pruner = new RetentionPruner(store, new Catalog([queue('p::a', 1000)], [], 4), log, {
      intervalMs: 60_000,
      batchSize: 2,
    });
    expect(await pruner.pass(NOW)).toEqual({ pruned: [], reclaimedBytes: 0 });
    expect(log.info).not.toHaveBeenCalled();
  });

  it('plans per limited queue from the store, deleting nothing', async () => {
    const waiting = { 'p::a': 3 };
    const { store, calls } = storeWith(waiting);
    const catalog = new Catalog([queue('p::a', 1000), queue('p::keep', null)], [], 4);
    const pruner = new RetentionPruner(store, catalog, logger(), {
      intervalMs: 60_000,
      batchSize: 2,
    });
    expect(await pruner.plan(NOW)).toEqual([
      { queue: 'p::a', before: NOW - 1000, jobs: 3, oldestFinishedAt: 1 },
    ]);
    expect(calls).toEqual([]);
    expect(waiting['p::a']).toBe(3);
  });

  it('runs on its interval once started and stops between batches', async () => {
    vi.useFakeTimers();
    try {
      const { store, calls } = storeWith({ 'p::a': 1 });
      const pruner = new RetentionPruner(
        store,
        new Catalog([queue('p::a', 1000)], [], 4),
        logger(),
        {
          intervalMs: 10_000,
          batchSize: 2,
        },
      );
      pruner.start();
      await vi.advanceTimersByTimeAsync(4_999);
      expect(calls).toHaveLength(0); // recovery and dispatch first
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toHaveLength(2);
      await pruner.stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** The service's modules, tests and the store's own implementations left out. */
function serviceModules(dir = join(import.meta.dirname, '..')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'store' ? [] : serviceModules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the retention pass', () => {
  it('is the only caller of the ports that delete rows by age: no timer of its own elsewhere', () => {
    const pruning =
      /\.(prune|pruneFinished|pruneFirings|pruneBulkActions|pruneIdempotencyKeys|pruneEnded|pruneBefore|forgetFinishedCounts)\(/;
    const root = join(import.meta.dirname, '..');
    const callers = serviceModules()
      .filter((path) => pruning.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    // console-sessions.ts's prune() is the session step the pass calls, with its idle time.
    expect(callers.sort()).toEqual(['auth/console-sessions.ts', 'jobs/retention.ts']);
  });
});
