import type { PlacementPolicy } from '../../contract';

/**
 * Which of a queue's waiting jobs start on which host, from what each host has and what
 * Jobdeck's own jobs already hold there; pure, so the claim's transaction can run it on what it
 * has just read (docs/guides/hosts.md).
 */

/** What a job asks for, or a host has: CPUs, bytes of memory, GPUs. */
export interface Resources {
  cpus: number;
  memoryBytes: number;
  gpus: number;
}

/** `drained` and `lost` hosts take no new work; their jobs still count until they end. */
export type HostState = 'ready' | 'drained' | 'lost';

/** A machine of the engine, with what Jobdeck's jobs may use of it. */
export interface Host extends Resources {
  id: string;
  name: string;
  state: HostState;
}

export interface PlacementCandidate {
  id: string;
  resources: Resources;
}

export interface PlacementInput {
  hosts: readonly Host[];
  /** What jobs holding a slot hold, by host id. */
  held: ReadonlyMap<string, Resources>;
  /** The queue's waiting jobs, in the order they are claimed. */
  candidates: readonly PlacementCandidate[];
  /** Slots left: no more jobs start than this. */
  maxStarts: number;
  policy: PlacementPolicy;
}

/** A job to start on `host`, or one that waits (`note` says why; null: it waits for a slot). */
export type Placement =
  | { id: string; host: string; note?: undefined }
  | { id: string; host?: undefined; note: string | null };

export const NO_RESOURCES: Resources = { cpus: 0, memoryBytes: 0, gpus: 0 };

const DIMENSIONS = ['cpus', 'memoryBytes', 'gpus'] as const;
type Dimension = (typeof DIMENSIONS)[number];

export const plus = (a: Resources, b: Resources): Resources => ({
  cpus: a.cpus + b.cpus,
  memoryBytes: a.memoryBytes + b.memoryBytes,
  gpus: a.gpus + b.gpus,
});

const minus = (a: Resources, b: Resources): Resources => ({
  cpus: a.cpus - b.cpus,
  memoryBytes: a.memoryBytes - b.memoryBytes,
  gpus: a.gpus - b.gpus,
});

// CPUs are fractions: 0.1 + 0.2 must fit in 0.3.
const EPSILON = 1e-9;
// Written out, not over DIMENSIONS: a claim asks this of every host for every job it reads.
const fits = (need: Resources, room: Resources) =>
  need.cpus <= room.cpus + EPSILON &&
  need.memoryBytes <= room.memoryBytes + EPSILON &&
  need.gpus <= room.gpus + EPSILON;

/** How full a host would be once `need` is taken, 0 to 1 per dimension it has, summed. */
function fullnessAfter(host: Host, free: Resources, need: Resources): number {
  let sum = 0;
  for (const d of DIMENSIONS) {
    if (host[d] > 0) sum += (host[d] - free[d] + need[d]) / host[d];
  }
  return sum;
}

/** How far a host falls short of a need, as a share of the host, summed. */
function shortfall(host: Host, free: Resources, need: Resources): number {
  return DIMENSIONS.reduce(
    (sum, d) => sum + Math.max(0, need[d] - free[d]) / Math.max(host[d], EPSILON),
    0,
  );
}

/**
 * Decides, in the candidates' order, which start where. Backfill: the first job that does not
 * fit reserves the host it will fit on soonest (of those big enough for it); a job behind it may
 * start on any other host, never on that one, so the jobs there only end and the first job's room
 * comes. No host ever gets more than it has: a start subtracts what the job asks for.
 */
export function place(input: PlacementInput): Placement[] {
  const ready = input.hosts.filter((h) => h.state === 'ready');
  const free = new Map(
    ready.map((h) => [h.id, minus(h, input.held.get(h.id) ?? NO_RESOURCES)] as const),
  );
  let reserved: Host | undefined;
  let starts = 0;
  // Jobs of one size waiting behind each other get one note: the hosts are the same until a start.
  const notesBySize = new Map<string, string>();
  return input.candidates.map(({ id, resources }) => {
    if (starts >= input.maxStarts) return { id, note: null };
    const host = pick(ready, reserved, free, resources, input.policy);
    if (host) {
      free.set(host.id, minus(free.get(host.id)!, resources));
      starts += 1;
      notesBySize.clear();
      return { id, host: host.id };
    }
    const size = `${resources.cpus}/${resources.memoryBytes}/${resources.gpus}/${reserved?.id ?? ''}`;
    let note = notesBySize.get(size);
    if (note === undefined) {
      note = waitingNote({ hosts: input.hosts, free, need: resources, reserved });
      notesBySize.set(size, note);
    }
    reserved ??= soonest(ready, free, resources);
    return { id, note };
  });
}

/** The host with room for `need` (the reserved one left out) the policy likes best. */
function pick(
  ready: readonly Host[],
  reserved: Host | undefined,
  free: ReadonlyMap<string, Resources>,
  need: Resources,
  policy: PlacementPolicy,
): Host | undefined {
  let best: Host | undefined;
  let bestScore = 0;
  for (const host of ready) {
    const room = free.get(host.id)!;
    if (host === reserved || !fits(need, room)) continue;
    const after = fullnessAfter(host, room, need);
    const score = policy === 'binpack' ? after : -after;
    if (!best || score > bestScore + EPSILON) [best, bestScore] = [host, score];
  }
  return best;
}

/** The host big enough for the job that lacks the least of what it needs now. */
function soonest(
  ready: readonly Host[],
  free: ReadonlyMap<string, Resources>,
  need: Resources,
): Host | undefined {
  let best: Host | undefined;
  let least = Infinity;
  for (const host of ready.filter((h) => fits(need, h))) {
    const lacks = shortfall(host, free.get(host.id)!, need);
    if (lacks < least) [best, least] = [host, lacks];
  }
  return best;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const trimmed = (n: number) => String(Math.round(n * 100) / 100);

/** 8 GiB, 3.5 GiB, 512 MiB, 100 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${trimmed(Math.round((bytes / GIB) * 10) / 10)} GiB`;
  if (bytes >= MIB) return `${trimmed(Math.round(bytes / MIB))} MiB`;
  return `${Math.max(0, Math.round(bytes))} bytes`;
}

const plural = (n: number, one: string, many: string) => `${trimmed(n)} ${n === 1 ? one : many}`;

/** One dimension's amount in words: "2 CPUs", "8 GiB of memory", "1 GPU". */
export function amountOf(dimension: Dimension, value: number, bare = false): string {
  const amount = Math.max(0, value);
  if (dimension === 'cpus') return plural(amount, 'CPU', 'CPUs');
  if (dimension === 'gpus') return plural(amount, 'GPU', 'GPUs');
  return bare ? formatBytes(amount) : `${formatBytes(amount)} of memory`;
}

const joined = (parts: string[]) =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

const hostsCounted = (n: number) => `${n} ${n === 1 ? 'host' : 'hosts'}`;

/** Why a job that fits no host now waits, by dimension. */
function waitingNote(params: {
  hosts: readonly Host[];
  free: ReadonlyMap<string, Resources>;
  need: Resources;
  reserved: Host | undefined;
}): string {
  const { hosts, free, need, reserved } = params;
  const ready = hosts.filter((h) => h.state === 'ready');
  if (ready.length === 0) return noHostNote(hosts);
  const most = (of: (h: Host) => number) => Math.max(...ready.map(of));
  const tooBig = DIMENSIONS.filter((d) => need[d] > most((h) => h[d]) + EPSILON);
  const where = hostsCounted(ready.length);
  if (tooBig.length > 0) {
    const needs = joined(tooBig.map((d) => amountOf(d, need[d])));
    const largest = joined(
      tooBig.map((d) =>
        amountOf(
          d,
          most((h) => h[d]),
          tooBig.length === 1,
        ),
      ),
    );
    return `waiting: needs ${needs}; the largest host has ${largest} (${where}): it starts once a host that big is ready`;
  }
  const short = DIMENSIONS.filter((d) => need[d] > most((h) => free.get(h.id)![d]) + EPSILON);
  if (short.length > 0) {
    const needs = joined(short.map((d) => amountOf(d, need[d])));
    const mostFree = joined(
      short.map((d) =>
        amountOf(
          d,
          most((h) => free.get(h.id)![d]),
          short.length === 1,
        ),
      ),
    );
    return `waiting: needs ${needs}; the most free on any host is ${mostFree} (${where})`;
  }
  const asked = DIMENSIONS.filter((d) => need[d] > 0).map((d) => amountOf(d, need[d]));
  if (reserved && fits(need, free.get(reserved.id)!)) {
    return `waiting: needs ${joined(asked)}; it fits only on ${reserved.name}, whose room is kept for an earlier job of the queue (${where})`;
  }
  return `waiting: needs ${joined(asked)} on one host; no host has all of it free at once (${where})`;
}

function noHostNote(hosts: readonly Host[]): string {
  if (hosts.length === 0) return 'waiting: the engine reports no host to run on';
  const drained = hosts.filter((h) => h.state === 'drained').length;
  const lost = hosts.length - drained;
  const parts = [drained > 0 && `${drained} drained`, lost > 0 && `${lost} lost`].filter(
    (p): p is string => typeof p === 'string',
  );
  return `waiting: no host takes new work (${joined(parts)})`;
}

/**
 * The first dimension in which a job asks for more than every host has, with the most any host
 * has; undefined when some host is big enough in each (lost hosts left out).
 */
export function beyondEveryHost(
  hosts: readonly Host[],
  need: Resources,
): { dimension: Dimension; largest: number } | undefined {
  const counted = hosts.filter((h) => h.state !== 'lost');
  if (counted.length === 0) return undefined;
  for (const dimension of DIMENSIONS) {
    const largest = Math.max(...counted.map((h) => h[dimension]));
    if (need[dimension] > largest + EPSILON) return { dimension, largest };
  }
  return undefined;
}
