import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FINAL_STATES,
  type JobListItem,
  type ProjectShareRecord,
  type SharePointRecord,
  type ShareList,
} from '../../contract';
import { ProjectKeys, until as waitUntil } from '../support/project-keys';
import { TEST_IMAGE, startService, testProjects, type TestService } from '../support/service';

/**
 * The shares' last day and the quota's waiting reason, through the real service on Docker:
 * projects a, b and c have quotas of 0.5, 1 and 0.5 CPUs (c may borrow none). a runs two
 * half-CPU jobs at once, borrowing of b's idle quota; c's second job waits for its quota, and
 * /metrics says so (`quota`, not `slot`). Once all ended, the hourly points are checked against
 * what ran: the time each job held its CPUs, from the job records.
 */
const HOUR_MS = 3_600_000;
let service: TestService;
const keys = new ProjectKeys();

const definitions = {
  half: { '1': { image: TEST_IMAGE, command: ['sleep', '4'], resources: { cpus: 0.5 } } },
};
const queues = { default: { max_running: 10 } };

beforeAll(async () => {
  service = await startService({
    reconcile_interval_seconds: 1,
    max_running: 10,
    metrics: { on_api_port: true },
    projects: {
      ...testProjects(),
      a: { quota: { cpus: 0.5 }, queues, definitions },
      b: { quota: { cpus: 1 }, queues, definitions },
      c: { quota: { cpus: 0.5, borrowing_limit: { cpus: 0 } }, queues, definitions },
    },
  });
  await keys.create(service, ['a', 'b', 'c'], 'operator');
}, 120_000);
afterAll(() => service?.stop());

const submit = (project: string) =>
  keys.submit(service, project, {
    job_definition: `${project}::half:1`,
    job_queue: `${project}::default`,
  });

const job = (id: string) => keys.job(service, id);

const until = <T>(what: string, read: () => Promise<T | undefined>) =>
  waitUntil(what, read, { timeoutMs: 60_000, pollMs: 200 });

/** The jobs' rows of the list: the record with its last attempt's start and end. */
async function rowsOf(project: string): Promise<Map<string, JobListItem>> {
  const { items } = await keys.read<{ items: JobListItem[] }>(
    service,
    project,
    `/jobs?queue=${project}::default`,
  );
  return new Map(items.map((j) => [j.id, j]));
}

const runOf = (j: JobListItem) => ({
  start: Date.parse(j.started_at!),
  end: Date.parse(j.finished_at!),
});

/** CPU-ms held by half-CPU jobs, and (over `quota`) borrowed, from their runs. */
function heldFrom(runs: { start: number; end: number }[], quota: number) {
  const times = [...new Set(runs.flatMap((r) => [r.start, r.end]))].sort((x, y) => x - y);
  let held = 0;
  let borrowed = 0;
  let peak = 0;
  for (let i = 0; i + 1 < times.length; i += 1) {
    const cpus = 0.5 * runs.filter((r) => r.start <= times[i]! && r.end > times[i]!).length;
    held += cpus * (times[i + 1]! - times[i]!);
    borrowed += Math.max(0, cpus - quota) * (times[i + 1]! - times[i]!);
    peak = Math.max(peak, cpus);
  }
  return { held, borrowed, peak };
}

/**
 * The points' time-weighted sum, (level × ms): every hour but the last is whole; the last ran
 * from its start to when the service counted, between `endedAt` and `answeredAt`.
 */
function sumBounds(
  points: SharePointRecord[],
  level: (p: SharePointRecord) => number,
  at: {
    endedAt: number;
    answeredAt: number;
  },
) {
  const last = points.at(-1)!;
  const whole = points.slice(0, -1).reduce((sum, p) => sum + level(p) * HOUR_MS, 0);
  const start = Date.parse(last.start);
  return {
    low: whole + level(last) * (at.endedAt - start),
    high: whole + level(last) * (at.answeredAt - start),
  };
}

describe('the last day of shares and quotas on Docker', () => {
  it('counts a quota-held job as waiting for its quota, and the hours from what ran', async () => {
    const cJobs = [await submit('c'), await submit('c')];
    const aJobs = [await submit('a'), await submit('a')];

    // c's second job is held by c's quota while its first runs: reason quota, not slot.
    const metrics = await until('a job held by its quota in /metrics', async () => {
      const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
      return /^jobdeck_jobs_waiting\{queue="c::default",reason="quota"\} 1$/m.test(text)
        ? text
        : undefined;
    });
    expect(metrics).toMatch(/^jobdeck_jobs_waiting\{queue="c::default",reason="slot"\} 0$/m);

    const ended = await Promise.all(
      [...aJobs, ...cJobs].map((id) =>
        until(`job ${id} to end`, async () => {
          const j = await job(id);
          return FINAL_STATES.includes(j.state) ? j : undefined;
        }),
      ),
    );
    for (const j of ended) expect(j.state).toBe('completed');
    const [aRows, cRows] = await Promise.all([rowsOf('a'), rowsOf('c')]);
    const aRuns = aJobs.map((id) => runOf(aRows.get(id)!));
    const cRuns = cJobs.map((id) => runOf(cRows.get(id)!));
    const endedAt = Math.max(...[...aRuns, ...cRuns].map((r) => r.end));

    // The first read of the last day: counted now, after every job ended.
    const response = await service.request('GET', '/v1/client/shares');
    const answeredAt = Date.now();
    expect(response.status).toBe(200);
    const projects = new Map(
      (response.body.data as ShareList).projects.map((p): [string, ProjectShareRecord] => [
        p.project,
        p,
      ]),
    );
    const at = { endedAt, answeredAt };
    const [a, b, c] = ['a', 'b', 'c'].map((p) => projects.get(p)!);
    for (const p of [a, b, c]) {
      expect(p!.last_day).toHaveLength(24);
      const starts = p!.last_day!.map((point) => Date.parse(point.start));
      expect(starts.every((s, i) => i === 0 || s - starts[i - 1]! === HOUR_MS)).toBe(true);
      expect(starts.at(-1)).toBe(Math.floor(answeredAt / HOUR_MS) * HOUR_MS);
    }

    const expectSum = (
      points: SharePointRecord[],
      level: (p: SharePointRecord) => number,
      expected: number,
    ) => {
      const { low, high } = sumBounds(points, level, at);
      // Within a millisecond's rounding of each run's times.
      expect(expected).toBeGreaterThanOrEqual(low - 10);
      expect(expected).toBeLessThanOrEqual(high + 10);
    };
    const aHeld = heldFrom(aRuns, 0.5);
    expectSum(a!.last_day!, (p) => p.in_use.average.cpus, aHeld.held);
    expectSum(a!.last_day!, (p) => p.borrowed!.average.cpus!, aHeld.borrowed);
    expect(Math.max(...a!.last_day!.map((p) => p.in_use.peak.cpus))).toBe(aHeld.peak);
    // Borrowed and lent in the dimensions the quota sets, and only under a quota.
    expect(Object.keys(a!.last_day!.at(-1)!.borrowed!.peak)).toEqual(['cpus']);
    expect(a!.queues[0]!.last_day!.at(-1)!.borrowed).toBeUndefined();
    expect(projects.get('t')!.last_day!.at(-1)!.borrowed).toBeUndefined();
    // a's two jobs overlapped (each sleeps 4 s, started together): then it borrowed of b.
    expect(aHeld.borrowed).toBeGreaterThan(0);
    expect(Math.max(...a!.last_day!.map((p) => p.borrowed!.peak.cpus!))).toBe(0.5);
    const lentByB = Math.max(...b!.last_day!.map((p) => p.lent!.peak.cpus!));
    expect(lentByB).toBeGreaterThan(0);
    expect(lentByB).toBeLessThanOrEqual(0.5);
    expect(Math.max(...b!.last_day!.map((p) => p.in_use.peak.cpus))).toBe(0);

    // c never held more than its quota: one job at a time.
    const cHeld = heldFrom(cRuns, 0.5);
    expect(cHeld.peak).toBe(0.5);
    expectSum(c!.last_day!, (p) => p.in_use.average.cpus, cHeld.held);
    expect(Math.max(...c!.last_day!.map((p) => p.borrowed!.peak.cpus!))).toBe(0);
  }, 180_000);
});
