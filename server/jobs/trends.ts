import type { JobState, TrendRange } from '../../contract';
import type { Catalog } from './catalog';
import { notFoundQueue } from './errors';
import type {
  DurationCount,
  Logger,
  OutcomeCount,
  TrendChange,
  TrendOutcome,
  TrendPeriod,
  TrendStore,
} from './ports';
import { bucketOf, quantileMs } from './trend-histogram';
import type { IncidentWindow } from './incidents';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** How long rollups are kept: daily ones for the 30-day view, hourly ones for the 24-hour one. */
const KEPT_MS: Record<TrendPeriod, number> = { hour: 2 * DAY_MS, day: 31 * DAY_MS };
const PERIOD_MS: Record<TrendPeriod, number> = { hour: HOUR_MS, day: DAY_MS };

export interface TrendRollerOptions {
  /** How often a pass runs when nothing is left to roll. */
  intervalMs: number;
  /** Changes read per batch (one transaction each). */
  batchSize: number;
}

/** Fresh enough for an overview, and an idle pass is one indexed read. */
export const TREND_ROLLER_DEFAULTS: TrendRollerOptions = { intervalMs: 2000, batchSize: 1000 };

/** A project's queue's trends over a range (readTrends over the store and catalog). */
export type TrendsReader = (
  project: string,
  queue: string,
  range: TrendRange,
) => Promise<QueueTrends>;

/** Between two batches: the submits waiting on the store go first. */
const BATCH_PAUSE_MS = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const OUTCOMES: Partial<Record<JobState, TrendOutcome>> = {
  completed: 'completed',
  failed: 'failed',
  timeout: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
};

/**
 * Counts what ended into the trends rollups, reading the change feed after its cursor a batch at
 * a time: the moves of jobs to final states add nothing to their own transactions. Each batch is
 * added in one transaction that moves the cursor by compare-and-set, so two instances on one
 * store count it once (the other rereads from where the cursor went). On a store it first runs
 * on, it starts at the changes of the last days the rollups keep. The store reads no change past
 * the commit-order horizon: one still to commit below a later one is counted once it commits,
 * never stepped over.
 */
export class TrendRoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private halted = false;

  constructor(
    private readonly store: TrendStore,
    private readonly logger: Logger,
    private readonly options: TrendRollerOptions,
  ) {}

  start(): void {
    this.halted = false;
    this.schedule(0);
  }

  /** Stops after the batch under way. */
  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Rolls every change settled now; returns how many changes it counted. */
  async pass(now = Date.now()): Promise<number> {
    let cursor = (await this.store.cursor()) ?? (await this.firstCursor(now));
    let rolled = 0;
    for (;;) {
      const changes = await this.store.changesAfter({
        afterSeq: cursor,
        limit: this.options.batchSize,
      });
      if (changes.length === 0) break;
      const to = changes.at(-1)!.seq;
      const { outcomes, durations } = countsOf(changes, now);
      if (await this.store.addCounts({ from: cursor, to, outcomes, durations })) {
        rolled += changes.length;
        cursor = to;
      } else {
        cursor = (await this.store.cursor())!;
      }
      if (changes.length < this.options.batchSize || this.halted) break;
      await pause(BATCH_PAUSE_MS);
    }
    return rolled;
  }

  private async firstCursor(now: number): Promise<number> {
    const start = await this.store.startCursor(await this.store.seqBefore(keptFrom('day', now)));
    this.logger.info({ afterSeq: start }, 'trends: counting the changes of the last 31 days');
    return start;
  }

  private schedule(delayMs: number): void {
    if (this.halted) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'trends: a pass failed; the next one tries again');
        })
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}

/** The start of the hour or UTC day `time` is in. */
export const startOf = (period: TrendPeriod, time: number) =>
  Math.floor(time / PERIOD_MS[period]) * PERIOD_MS[period];

/** The oldest rollup of the period kept at `now`. */
/** Where the rollups of a period kept at `now` start: older ones are pruned by the retention pass. */
export const keptFrom = (period: TrendPeriod, now: number) =>
  startOf(period, now - KEPT_MS[period]);

/**
 * The batch's ended jobs, counted per queue, period (each job in its hour and its day) and
 * outcome, and per histogram bucket; periods older than they are kept at `now` left out.
 */
export function countsOf(
  changes: readonly TrendChange[],
  now: number,
): { outcomes: OutcomeCount[]; durations: DurationCount[] } {
  const outcomes = new Map<string, OutcomeCount>();
  const durations = new Map<string, DurationCount>();
  const add = <T extends { jobs: number }>(into: Map<string, T>, key: string, row: T) => {
    const found = into.get(key);
    if (found) found.jobs += 1;
    else into.set(key, row);
  };
  for (const { at, ended } of changes) {
    const outcome = ended && OUTCOMES[ended.state];
    if (!ended || !outcome) continue;
    const { queue } = ended;
    const measured = [
      ['wait', ended.firstStartedAt === null ? null : ended.firstStartedAt - ended.waitFrom],
      [
        'run',
        ended.startedAt === null || ended.finishedAt === null
          ? null
          : ended.finishedAt - ended.startedAt,
      ],
    ] as const;
    for (const period of ['hour', 'day'] as const) {
      const start = startOf(period, at);
      if (start < keptFrom(period, now)) continue;
      const key = `${queue}\n${period}\n${start}`;
      add(outcomes, `${key}\n${outcome}`, { queue, period, start, outcome, jobs: 1 });
      for (const [measure, ms] of measured) {
        if (ms === null) continue;
        const bucket = bucketOf(Math.max(0, ms));
        add(durations, `${key}\n${measure}\n${bucket}`, {
          queue,
          period,
          start,
          measure,
          bucket,
          jobs: 1,
        });
      }
    }
  }
  return { outcomes: [...outcomes.values()], durations: [...durations.values()] };
}

/** One bucket of the answer: its start and the jobs that ended in it, by outcome. */
export interface TrendPoint {
  start: number;
  completed: number;
  failed: number;
  cancelled: number;
}

export interface DurationFigures {
  jobs: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface QueueTrends {
  queue: string;
  /** The engine's outages and the queue's pauses in the range (where incidents are read). */
  incidents?: IncidentWindow[];
  range: TrendRange;
  bucketMs: number;
  points: TrendPoint[];
  wait: DurationFigures;
  run: DurationFigures;
}

const RANGES: Record<TrendRange, { period: TrendPeriod; buckets: number }> = {
  '24h': { period: 'hour', buckets: 24 },
  '30d': { period: 'day', buckets: 30 },
};

/** A project's queue's trends over a range, read from the rollups (UTC hours and days). */
export async function readTrends(
  store: TrendStore,
  catalog: Catalog,
  project: string,
  queue: string,
  range: TrendRange,
  now = Date.now(),
): Promise<QueueTrends> {
  const settings = catalog.queue(queue);
  if (!settings || settings.project !== project) throw notFoundQueue(queue);
  const { period, buckets } = RANGES[range];
  const bucketMs = PERIOD_MS[period];
  const first = startOf(period, now) - (buckets - 1) * bucketMs;
  const [outcomes, durations] = await Promise.all([
    store.outcomes({ queue, period, from: first }),
    store.durations({ queue, period, from: first }),
  ]);
  const points = Array.from({ length: buckets }, (_, i) => ({
    start: first + i * bucketMs,
    completed: 0,
    failed: 0,
    cancelled: 0,
  }));
  for (const row of outcomes) {
    const point = points[(row.start - first) / bucketMs];
    if (point) point[row.outcome] += row.jobs;
  }
  return {
    queue,
    range,
    bucketMs,
    points,
    wait: figuresOf(durations, 'wait'),
    run: figuresOf(durations, 'run'),
  };
}

/** The jobs counted in `durations` for one measure, and their median and 95th percentile. */
function figuresOf(
  durations: readonly Pick<DurationCount, 'measure' | 'bucket' | 'jobs'>[],
  measure: 'wait' | 'run',
): DurationFigures {
  const counts = new Map(
    durations.filter((d) => d.measure === measure).map((d) => [d.bucket, d.jobs]),
  );
  return {
    jobs: [...counts.values()].reduce((sum, n) => sum + n, 0),
    p50Ms: quantileMs(counts, 0.5),
    p95Ms: quantileMs(counts, 0.95),
  };
}

/**
 * A queue's run times of late: its jobs that ended in the current UTC hour and the one before
 * (the hourly rollups' finest grain), so a new hour does not start with nothing.
 */
export async function recentRunTimes(
  store: TrendStore,
  queue: string,
  now = Date.now(),
): Promise<DurationFigures> {
  const since = startOf('hour', now) - HOUR_MS;
  return figuresOf(await store.durations({ queue, period: 'hour', from: since }), 'run');
}
