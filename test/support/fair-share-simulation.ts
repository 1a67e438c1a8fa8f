import {
  NO_QUEUE_USE,
  addUsage,
  rankQueues,
  scaleUsage,
  usageOfJob,
  type QueueUse,
} from '../../server/jobs/fair-share';
import { NO_RESOURCES, place, plus, type Host, type Resources } from '../../server/jobs/placement';

/**
 * The dispatcher's ordering and placement at full size, in virtual time: jobs of several
 * projects on many hosts, each start decided as Dispatcher.fillSlots and the store's claim decide
 * it (fair share: one start per claim, queues ranked again after each; `priority`: the order
 * before fair share, each queue in turn taking all the room it can), run to the end in seconds
 * of real time. Used by test/domain/fair-share-scale.test.ts and bench/fair-share.ts.
 */

export interface SimJob {
  id: string;
  queue: string;
  resources: Resources;
  runSeconds: number;
  /** When it is submitted, in virtual seconds. */
  at: number;
  /** The largest size of the mix: its waits are bounded (the test says how far). */
  biggest: boolean;
}

export interface SimQueue {
  ref: string;
  project: string;
}

export interface Simulation {
  hosts: Host[];
  queues: SimQueue[];
  projectWeights: Map<string, number>;
  jobs: SimJob[];
  halfLifeSeconds: number;
  ordering: 'fair-share' | 'priority';
  /** Jobs read per claim (the claim's `limit`). */
  candidates: number;
}

export interface SimResult {
  /** CPU-seconds held per project in each window [from, to) asked for. */
  held: (window: [number, number]) => Map<string, number>;
  /** How long the biggest jobs waited from reaching their queue's head to starting. */
  biggestHeadWaits: number[];
  starts: number;
  /** When each project's last job started: it had work waiting until then. */
  lastStart: Map<string, number>;
  /** Real milliseconds spent ranking and placing, over all starts. */
  decideMs: number;
  /** What was held beyond a host's capacity at any start (none: 0 each). */
  overCommits: number;
  endedAt: number;
}

interface Running {
  job: SimJob;
  host: string;
  startedAt: number;
  endsAt: number;
}

const fits = (held: Resources, host: Host) =>
  held.cpus <= host.cpus + 1e-9 && held.memoryBytes <= host.memoryBytes && held.gpus <= host.gpus;

/** Runs every job to its end; each end (and each submit time) is a dispatch. */
export function simulate(sim: Simulation): SimResult {
  const waiting = new Map(sim.queues.map((q) => [q.ref, [] as SimJob[]]));
  const arrivals = [...sim.jobs].sort((a, b) => a.at - b.at);
  const running: Running[] = [];
  const done: Running[] = [];
  const heldOn = new Map<string, Resources>();
  const use = new Map<string, QueueUse>();
  const headSince = new Map<string, number>();
  const biggestHeadWaits: number[] = [];
  const halfLifeMs = sim.halfLifeSeconds * 1000;
  const capacity = sim.hosts.reduce((sum, h) => addUsage(sum, { ...h, jobs: 0 }), {
    cpus: 0,
    memoryBytes: 0,
    gpus: 0,
    jobs: Number.MAX_SAFE_INTEGER,
  });
  let now = 0;
  let next = 0;
  let decideMs = 0;
  let overCommits = 0;
  let lastDecay = 0;
  const lastStart = new Map<string, number>();
  const projectOf = new Map(sim.queues.map((q) => [q.ref, q.project]));

  const decay = () => {
    const factor = 2 ** (-(now - lastDecay) / sim.halfLifeSeconds);
    for (const [ref, u] of use) use.set(ref, { ...u, recent: scaleUsage(u.recent, factor) });
    lastDecay = now;
  };

  const noteHeads = () => {
    for (const [head] of waiting.values()) {
      if (head?.biggest && !headSince.has(head.id)) headSince.set(head.id, now);
    }
  };

  /** One claim in the queue: as the store's, up to `starts`. */
  const claim = (ref: string, starts: number): number => {
    const jobs = waiting.get(ref)!;
    if (jobs.length === 0) return 0;
    const candidates = jobs.slice(0, sim.candidates);
    const decisions = place({
      hosts: sim.hosts,
      held: heldOn,
      candidates: candidates.map((j) => ({ id: j.id, resources: j.resources })),
      maxStarts: starts,
      policy: 'binpack',
    });
    const started = new Set<string>();
    for (const [i, decision] of decisions.entries()) {
      if (decision.host === undefined) continue;
      const job = candidates[i]!;
      const held = plus(heldOn.get(decision.host) ?? NO_RESOURCES, job.resources);
      if (
        !fits(
          held,
          sim.hosts.find((h) => h.id === decision.host)!,
        )
      )
        overCommits += 1;
      heldOn.set(decision.host, held);
      running.push({ job, host: decision.host, startedAt: now, endsAt: now + job.runSeconds });
      const kept = use.get(ref) ?? NO_QUEUE_USE;
      use.set(ref, { ...kept, now: addUsage(kept.now, usageOfJob(job.resources)) });
      if (job.biggest) biggestHeadWaits.push(now - (headSince.get(job.id) ?? now));
      started.add(job.id);
      lastStart.set(projectOf.get(ref)!, now);
    }
    if (started.size > 0)
      waiting.set(
        ref,
        jobs.filter((j) => !started.has(j.id)),
      );
    return started.size;
  };

  const dispatch = () => {
    const began = performance.now();
    decay();
    const asking = sim.queues.map((q) => ({ ...q, priority: 0 }));
    while (asking.length > 0) {
      noteHeads();
      if (sim.ordering === 'priority') {
        claim(asking.shift()!.ref, Infinity);
        continue;
      }
      const [first] = rankQueues({
        queues: asking,
        projectWeights: sim.projectWeights,
        use,
        capacity,
        halfLifeMs,
      });
      if (claim(first!.ref, 1) === 0) asking.splice(asking.indexOf(first!), 1);
    }
    noteHeads();
    decideMs += performance.now() - began;
  };

  while (next < arrivals.length || running.length > 0) {
    const nextEnd = running.reduce((min, r) => Math.min(min, r.endsAt), Infinity);
    const nextArrival = arrivals[next]?.at ?? Infinity;
    now = Math.min(nextEnd, nextArrival);
    while (next < arrivals.length && arrivals[next]!.at <= now) {
      const job = arrivals[next++]!;
      waiting.get(job.queue)!.push(job);
    }
    for (let i = running.length - 1; i >= 0; i -= 1) {
      const r = running[i]!;
      if (r.endsAt > now) continue;
      running.splice(i, 1);
      done.push(r);
      heldOn.set(r.host, plus(heldOn.get(r.host)!, scaleResources(r.job.resources, -1)));
      decay();
      const kept = use.get(r.job.queue)!;
      use.set(r.job.queue, {
        now: addUsage(kept.now, scaleUsage(usageOfJob(r.job.resources), -1)),
        recent: addUsage(kept.recent, scaleUsage(usageOfJob(r.job.resources), r.job.runSeconds)),
      });
    }
    dispatch();
  }

  return {
    held: ([from, to]) => {
      const sums = new Map<string, number>();
      for (const r of done) {
        const overlap = Math.min(to, r.endsAt) - Math.max(from, r.startedAt);
        if (overlap <= 0) continue;
        const project = projectOf.get(r.job.queue)!;
        sums.set(project, (sums.get(project) ?? 0) + overlap * r.job.resources.cpus);
      }
      return sums;
    },
    biggestHeadWaits,
    starts: done.length,
    lastStart,
    decideMs,
    overCommits,
    endedAt: now,
  };
}

const scaleResources = (r: Resources, k: number): Resources => ({
  cpus: r.cpus * k,
  memoryBytes: r.memoryBytes * k,
  gpus: r.gpus * k,
});

const GIB = 1024 ** 3;

function hosts(): Host[] {
  const sizes = [
    { name: 'small', count: 20, cpus: 8, gib: 32, gpus: 0 },
    { name: 'medium', count: 20, cpus: 16, gib: 64, gpus: 0 },
    { name: 'large', count: 10, cpus: 32, gib: 256, gpus: 4 },
  ];
  return sizes.flatMap(({ name, count, cpus, gib, gpus }) =>
    Array.from({ length: count }, (_, i) => ({
      id: `${name}-${i + 1}`,
      name: `${name}-${i + 1}`,
      cpus,
      memoryBytes: gib * GIB,
      gpus,
      state: 'ready' as const,
    })),
  );
}

/** Sizes with their weights in the mix: many small jobs, GPU jobs (large hosts only), whole medium hosts. */
const MIX = [
  { cpus: 1, gib: 2, gpus: 0, weight: 40 },
  { cpus: 2, gib: 8, gpus: 0, weight: 30 },
  { cpus: 4, gib: 16, gpus: 0, weight: 15 },
  { cpus: 4, gib: 16, gpus: 1, weight: 10 },
  { cpus: 16, gib: 64, gpus: 0, weight: 5 },
];
const BIGGEST = MIX.at(-1)!;

/** A fixed sequence, so a failure can be run again as it was. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function jobs(): SimJob[] {
  const draw = random(49);
  const total = MIX.reduce((sum, m) => sum + m.weight, 0);
  const submitted: SimJob[] = [];
  // In proportion to the weights, so that all three stay busy together for hours.
  const perProject = { a: 5000, b: 3333, c: 1667 };
  for (const [project, count] of Object.entries(perProject)) {
    for (let i = 0; i < count; i += 1) {
      let pick = draw() * total;
      const size = MIX.find((m) => (pick -= m.weight) < 0) ?? BIGGEST;
      submitted.push({
        id: `${project}-${i}`,
        queue: `${project}::q`,
        resources: { cpus: size.cpus, memoryBytes: size.gib * GIB, gpus: size.gpus },
        runSeconds: 60 + Math.floor(draw() * 540),
        at: project === 'c' ? 3600 : 0,
        biggest: size === BIGGEST,
      });
    }
  }
  return submitted;
}

/** The full-size scenario: c's jobs come at 3,600 s, a's and b's at once. */
export const fullSize = (ordering: Simulation['ordering']): Simulation => ({
  hosts: hosts(),
  queues: ['a', 'b', 'c'].map((p) => ({ ref: `${p}::q`, project: p })),
  projectWeights: new Map([
    ['a', 3],
    ['b', 2],
    ['c', 1],
  ]),
  jobs: jobs(),
  halfLifeSeconds: 600,
  ordering,
  candidates: 32,
});

export const CPUS = 20 * 8 + 20 * 16 + 10 * 32;

/** Each project's part of the CPU-seconds held. */
export function fractions(held: Map<string, number>): Record<string, number> {
  const total = [...held.values()].reduce((sum, n) => sum + n, 0);
  return Object.fromEntries(['a', 'b', 'c'].map((p) => [p, (held.get(p) ?? 0) / total]));
}
