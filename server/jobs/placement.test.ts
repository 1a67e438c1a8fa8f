import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NO_RESOURCES,
  beyondEveryHost,
  formatBytes,
  place,
  plus,
  type Host,
  type PlacementInput,
  type Resources,
} from './placement';

const GIB = 1024 ** 3;

const host = (id: string, cpus: number, gib: number, extra: Partial<Host> = {}): Host => ({
  id,
  name: id,
  cpus,
  memoryBytes: gib * GIB,
  gpus: 0,
  state: 'ready',
  ...extra,
});

const job = (id: string, cpus: number, gib: number, gpus = 0) => ({
  id,
  resources: { cpus, memoryBytes: gib * GIB, gpus },
});

const input = (over: Partial<PlacementInput>): PlacementInput => ({
  hosts: [],
  held: new Map(),
  candidates: [],
  maxStarts: 100,
  policy: 'binpack',
  ...over,
});

describe('place', () => {
  it('says by dimension what a job that fits no host now needs, and the most free', () => {
    const hosts = [host('a', 8, 4), host('b', 8, 8), host('c', 8, 8)];
    const held = new Map([
      ['a', { cpus: 1, memoryBytes: 0.5 * GIB, gpus: 0 }],
      ['b', { cpus: 1, memoryBytes: 5 * GIB, gpus: 0 }],
      ['c', { cpus: 1, memoryBytes: 6 * GIB, gpus: 0 }],
    ]);
    const [decision] = place(input({ hosts, held, candidates: [job('big', 1, 8)] }));
    expect(decision).toEqual({
      id: 'big',
      note: 'waiting: needs 8 GiB of memory; the most free on any host is 3.5 GiB (3 hosts)',
    });
  });

  it('says when a job is bigger than every ready host', () => {
    const hosts = [host('a', 4, 16), host('b', 2, 8, { gpus: 1 })];
    const [decision] = place(input({ hosts, candidates: [job('gpu', 1, 1, 2)] }));
    expect(decision!.note).toBe(
      'waiting: needs 2 GPUs; the largest host has 1 GPU (2 hosts): it starts once a host that big is ready',
    );
  });

  it('says when no one host has every dimension free at once', () => {
    const hosts = [host('a', 4, 2), host('b', 1, 16)];
    const [decision] = place(input({ hosts, candidates: [job('j', 2, 8)] }));
    expect(decision!.note).toBe(
      'waiting: needs 2 CPUs and 8 GiB of memory on one host; no host has all of it free at once (2 hosts)',
    );
  });

  it('starts nothing on drained or lost hosts and says so', () => {
    const hosts = [host('a', 8, 8, { state: 'drained' }), host('b', 8, 8, { state: 'lost' })];
    expect(place(input({ hosts, candidates: [job('j', 1, 1)] }))).toEqual([
      { id: 'j', note: 'waiting: no host takes new work (1 drained and 1 lost)' },
    ]);
  });

  it('keeps the first waiting job its host: a smaller one behind it starts elsewhere only', () => {
    const hosts = [host('a', 4, 8), host('b', 4, 4)];
    // a has 4 GiB free, b 2 GiB: the big job needs 6, a is the host it will fit on soonest.
    const held = new Map([
      ['a', { cpus: 1, memoryBytes: 4 * GIB, gpus: 0 }],
      ['b', { cpus: 1, memoryBytes: 2 * GIB, gpus: 0 }],
    ]);
    const decisions = place(
      input({ hosts, held, candidates: [job('big', 1, 6), job('small', 1, 1), job('mid', 1, 3)] }),
    );
    expect(decisions).toEqual([
      { id: 'big', note: expect.stringContaining('needs 6 GiB of memory') },
      { id: 'small', host: 'b' },
      {
        id: 'mid',
        note: 'waiting: needs 1 CPU and 3 GiB of memory; it fits only on a, whose room is kept for an earlier job of the queue (2 hosts)',
      },
    ]);
  });

  it('bin-packs onto the fullest host that fits, or spreads onto the emptiest', () => {
    const hosts = [host('a', 8, 8), host('b', 8, 8)];
    const held = new Map([['a', { cpus: 4, memoryBytes: 4 * GIB, gpus: 0 }]]);
    const candidates = [job('j', 1, 1)];
    expect(place(input({ hosts, held, candidates }))[0]!.host).toBe('a');
    expect(place(input({ hosts, held, candidates, policy: 'spread' }))[0]!.host).toBe('b');
  });

  it('starts no more than the slots left; the rest wait for a slot (no note)', () => {
    const hosts = [host('a', 8, 8)];
    const decisions = place(
      input({ hosts, candidates: [job('1', 1, 1), job('2', 1, 1)], maxStarts: 1 }),
    );
    expect(decisions).toEqual([
      { id: '1', host: 'a' },
      { id: '2', note: null },
    ]);
  });

  it('never over-commits a host, whatever the sizes (property)', () => {
    const resources = fc.record({
      cpus: fc.integer({ min: 0, max: 16 }).map((n) => n / 4),
      memoryBytes: fc.integer({ min: 0, max: 64 }).map((n) => n * 256 * 1024 ** 2),
      gpus: fc.integer({ min: 0, max: 2 }),
    });
    const hostArb = fc.record({
      capacity: resources,
      held: resources,
      state: fc.constantFrom('ready', 'ready', 'drained', 'lost' as const),
    });
    fc.assert(
      fc.property(
        fc.array(hostArb, { minLength: 1, maxLength: 6 }),
        fc.array(resources, { maxLength: 30 }),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom('binpack', 'spread' as const),
        (hostSpecs, needs, maxStarts, policy) => {
          const hosts = hostSpecs.map((h, i) => ({
            ...h.capacity,
            id: `h${i}`,
            name: `h${i}`,
            state: h.state as Host['state'],
          }));
          const held = new Map(hostSpecs.map((h, i) => [`h${i}`, h.held]));
          const candidates = needs.map((r, i) => ({ id: `j${i}`, resources: r }));
          const decisions = place({ hosts, held, candidates, maxStarts, policy });
          const used = new Map<string, Resources>();
          let started = 0;
          for (const [i, d] of decisions.entries()) {
            expect(d.id).toBe(`j${i}`);
            if (d.host === undefined) continue;
            started += 1;
            used.set(d.host, plus(used.get(d.host) ?? NO_RESOURCES, needs[i]!));
          }
          expect(started).toBeLessThanOrEqual(maxStarts);
          for (const [id, add] of used) {
            const h = hosts.find((x) => x.id === id)!;
            expect(h.state).toBe('ready');
            const total = plus(held.get(id)!, add);
            expect(total.cpus).toBeLessThanOrEqual(h.cpus + 1e-9);
            expect(total.memoryBytes).toBeLessThanOrEqual(h.memoryBytes);
            expect(total.gpus).toBeLessThanOrEqual(h.gpus);
          }
        },
      ),
      { seed: 49, numRuns: 500 },
    );
  });
});

describe('beyondEveryHost', () => {
  it('names the first dimension no host (lost ones aside) is big enough in', () => {
    const hosts = [host('a', 2, 4), host('b', 64, 256, { state: 'lost' })];
    expect(beyondEveryHost(hosts, { cpus: 1, memoryBytes: 8 * GIB, gpus: 0 })).toEqual({
      dimension: 'memoryBytes',
      largest: 4 * GIB,
    });
    expect(beyondEveryHost(hosts, { cpus: 2, memoryBytes: 4 * GIB, gpus: 0 })).toBeUndefined();
  });
});

it('formats sizes as the notes say them', () => {
  expect(formatBytes(3.5 * GIB)).toBe('3.5 GiB');
  expect(formatBytes(512 * 1024 ** 2)).toBe('512 MiB');
  expect(formatBytes(8 * GIB)).toBe('8 GiB');
});
