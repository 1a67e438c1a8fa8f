import { NO_USAGE, addUsage, scaleUsage, type Usage } from './fair-share';
import type { SlotRun } from './ports';
import { DIMENSIONS, hasQuotas, quotaView, type QuotaSettings } from './quotas';
import { HOUR_MS } from './trends';

/** The hours a history covers, the current one (so far) last. */
export const HISTORY_HOURS = 24;

/** An amount's average over an hour (time-weighted) and its highest level in it. */
export interface Spread<T> {
  average: T;
  peak: T;
}

/** One hour of a project's or a queue's use: what it held, and borrowed and lent under a quota. */
export interface SharePoint {
  start: number;
  used: Spread<Usage>;
  /** The largest fraction it held of a capacity (counted against the capacity now). */
  dominant: Spread<number>;
  /** Where it has a quota: what it used beyond it, and what the others used of it. */
  borrowed?: Spread<Usage>;
  lent?: Spread<Usage>;
}

export interface ShareHistory {
  projects: Map<string, SharePoint[]>;
  queues: Map<string, SharePoint[]>;
}

interface Levels {
  used: Usage;
  dominant: number;
  quota?: { borrowed: Usage; lent: Usage };
}

const maxUsage = (a: Usage, b: Usage): Usage => ({
  cpus: Math.max(a.cpus, b.cpus),
  memoryBytes: Math.max(a.memoryBytes, b.memoryBytes),
  gpus: Math.max(a.gpus, b.gpus),
  jobs: Math.max(a.jobs, b.jobs),
});

/** One member's sums (level × ms) and peaks over one hour. */
class HourTally {
  private used = { sum: NO_USAGE, peak: NO_USAGE };
  private dominant = { sum: 0, peak: 0 };
  private borrowed: { sum: Usage; peak: Usage } | undefined;
  private lent: { sum: Usage; peak: Usage } | undefined;

  add(levels: Levels, ms: number): void {
    const tally = (kept: { sum: Usage; peak: Usage } | undefined, level: Usage) => ({
      sum: addUsage(kept?.sum ?? NO_USAGE, scaleUsage(level, ms)),
      peak: maxUsage(kept?.peak ?? NO_USAGE, level),
    });
    this.used = tally(this.used, levels.used);
    this.dominant = {
      sum: this.dominant.sum + levels.dominant * ms,
      peak: Math.max(this.dominant.peak, levels.dominant),
    };
    if (levels.quota) {
      this.borrowed = tally(this.borrowed, levels.quota.borrowed);
      this.lent = tally(this.lent, levels.quota.lent);
    }
  }

  point(start: number, ms: number): SharePoint {
    const spread = ({ sum, peak }: { sum: Usage; peak: Usage }) => ({
      average: ms > 0 ? scaleUsage(sum, 1 / ms) : NO_USAGE,
      peak,
    });
    return {
      start,
      used: spread(this.used),
      dominant: { average: ms > 0 ? this.dominant.sum / ms : 0, peak: this.dominant.peak },
      ...(this.borrowed && { borrowed: spread(this.borrowed) }),
      ...(this.lent && { lent: spread(this.lent) }),
    };
  }
}

const dominantOf = (used: Usage, capacity: Usage) =>
  Math.max(0, ...DIMENSIONS.filter((d) => capacity[d] > 0).map((d) => used[d] / capacity[d]));

/**
 * Each project's and queue's last day by hour, from the runs that held a slot in it: between two
 * starts or ends what each holds is constant, so averages are exact, and peaks are the highest
 * such level. Borrowed and lent are counted as quotas.ts counts them now, under the quotas set
 * now; a member without a quota has none.
 */
export function shareHistory(input: {
  runs: readonly SlotRun[];
  queues: readonly { ref: string; project: string }[];
  settings: QuotaSettings;
  capacity: Usage;
  now: number;
}): ShareHistory {
  const { runs, queues, settings, capacity, now } = input;
  const since = Math.floor(now / HOUR_MS) * HOUR_MS - (HISTORY_HOURS - 1) * HOUR_MS;
  const known = new Set(queues.map((q) => q.ref));
  const changes = new Map<number, { queue: string; delta: Usage }[]>();
  const change = (at: number, queue: string, delta: Usage) =>
    changes.set(at, [...(changes.get(at) ?? []), { queue, delta }]);
  for (const run of runs) {
    const end = run.endedAt ?? Infinity;
    if (!known.has(run.queue) || end <= since || run.startedAt >= now || end <= run.startedAt) {
      continue;
    }
    change(Math.max(since, run.startedAt), run.queue, run.use);
    if (end < now) change(end, run.queue, scaleUsage(run.use, -1));
  }
  const hourStarts = Array.from({ length: HISTORY_HOURS }, (_, i) => since + i * HOUR_MS);
  const times = [...new Set([...hourStarts, ...changes.keys(), now])].sort((a, b) => a - b);

  const members = [...new Set(queues.map((q) => q.project)), ...known];
  const tallies = new Map(members.map((m) => [m, hourStarts.map(() => new HourTally())]));
  const used = new Map<string, Usage>();
  const quotas = hasQuotas(settings);
  for (const [i, at] of times.entries()) {
    for (const { queue, delta } of changes.get(at) ?? []) {
      used.set(queue, addUsage(used.get(queue) ?? NO_USAGE, delta));
    }
    const ms = (times[i + 1] ?? at) - at;
    if (ms <= 0) continue;
    const hour = Math.floor((at - since) / HOUR_MS);
    const view = quotas ? quotaView({ queues, settings, used, waiting: new Set() }) : undefined;
    const levelsOf = (member: string, own: Usage, figures = view?.queues.get(member)) => ({
      used: own,
      dominant: dominantOf(own, capacity),
      ...(figures?.quota && { quota: { borrowed: figures.borrowed, lent: figures.lent } }),
    });
    const byProject = new Map<string, Usage>();
    for (const q of queues) {
      const own = used.get(q.ref) ?? NO_USAGE;
      byProject.set(q.project, addUsage(byProject.get(q.project) ?? NO_USAGE, own));
      tallies.get(q.ref)![hour]!.add(levelsOf(q.ref, own), ms);
    }
    for (const [project, own] of byProject) {
      tallies.get(project)![hour]!.add(levelsOf(project, own, view?.projects.get(project)), ms);
    }
  }
  const pointsOf = (member: string) =>
    tallies
      .get(member)!
      .map((tally, h) => tally.point(hourStarts[h]!, Math.min(HOUR_MS, now - hourStarts[h]!)));
  return {
    projects: new Map([...new Set(queues.map((q) => q.project))].map((p) => [p, pointsOf(p)])),
    queues: new Map([...known].map((q) => [q, pointsOf(q)])),
  };
}
