import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobListSchema, type JobListItem } from '../../contract';
import { submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.stop());

async function list(query: string) {
  const response = await service.request('GET', `/v1/client/jobs?${query}`);
  expect(response.status, response.text).toBe(200);
  return jobListSchema.parse(response.body.data);
}

/** Every page of a query, each asked for with the cursor of the one before. */
async function allPages(query: string): Promise<JobListItem[]> {
  const items: JobListItem[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(cursor ? `${query}&cursor=${cursor}` : query);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const ms = (time: string | null) => (time === null ? null : Date.parse(time));
const duration = (job: JobListItem) =>
  job.started_at && job.finished_at ? ms(job.finished_at)! - ms(job.started_at)! : null;

describe('the job list sorted on the service', () => {
  const tag = `sort-${randomBytes(4).toString('hex')}`;
  const ran: Record<string, string> = {};
  let held: string;

  beforeAll(async () => {
    // Run one after another: each ends after the one before, the longest in the middle.
    for (const [name, seconds] of [
      ['a', 0.2],
      ['b', 1.5],
      ['c', 0.6],
    ] as const) {
      ran[name] = await submit(service, {
        job_definition: 't::sh:1',
        name: `${tag}-${name}`,
        container_cmd_parameter: { script: `sleep ${seconds}` },
      });
      await waitForState(service, ran[name], 'completed');
    }
    held = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
      name: `${tag}-held`,
    });
  });
  afterAll(() => service.request('POST', `/v1/client/job/${held}/cancel`));

  it('orders every matching job by duration, ended or started time across pages, those without one last', async () => {
    const ids = async (sort: string) =>
      (await allPages(`name=${tag}&limit=1&sort=${sort}`)).map((job) => job.id);
    expect(await ids('-duration')).toEqual([ran.b, ran.c, ran.a, held]);
    expect(await ids('duration')).toEqual([ran.a, ran.c, ran.b, held]);
    expect(await ids('-ended_at')).toEqual([ran.c, ran.b, ran.a, held]);
    expect(await ids('started_at')).toEqual([ran.a, ran.b, ran.c, held]);
    expect(await ids('created_at')).toEqual([ran.a, ran.b, ran.c, held]);
    // Lifecycle order: runnable before completed; ties by creation, in the same direction.
    expect(await ids('state')).toEqual([held, ran.a, ran.b, ran.c]);
    expect(await ids('-state')).toEqual([ran.c, ran.b, ran.a, held]);
    const rows = await allPages(`name=${tag}&sort=-duration`);
    const durations = rows.map(duration);
    expect(durations.slice(0, 3)).toEqual([...durations.slice(0, 3)].sort((x, y) => y! - x!));
    // Without sort: the spec-era answer, newest first.
    expect((await allPages(`name=${tag}&limit=1`)).map((job) => job.id)).toEqual([
      held,
      ran.c,
      ran.b,
      ran.a,
    ]);
  });

  it('filters by when jobs ended, each bound on its own', async () => {
    const [a, b, c] = await Promise.all(
      [ran.a, ran.b, ran.c].map(async (id) =>
        (await list(`name=${tag}&sort=ended_at`)).items.find((j) => j.id === id)!,
      ),
    );
    const ids = async (query: string) =>
      (await list(`name=${tag}&${query}`)).items.map((job) => job.id);
    expect(await ids(`ended_after=${a!.finished_at}`)).toEqual([ran.c, ran.b]);
    expect(await ids(`ended_before=${c!.finished_at}`)).toEqual([ran.b, ran.a]);
    expect(
      await ids(`ended_after=${a!.finished_at}&ended_before=${c!.finished_at}&sort=ended_at`),
    ).toEqual([ran.b]);
    expect((await list(`name=${tag}&ended_after=${b!.finished_at}`)).total).toBe(1);
  });

  it('names the field of a bad sort, a bad ended time, and a cursor of another sort', async () => {
    const sorted = (await list(`name=${tag}&limit=1&sort=-duration`)).next_cursor!;
    const plain = (await list(`name=${tag}&limit=1`)).next_cursor!;
    const cases: [string, RegExp][] = [
      ['sort=name', /^sort: must be one of state, created_at, started_at, ended_at, duration/],
      ['sort=duration&sort=state', /^sort: must be given once$/],
      ['ended_after=an+hour+ago', /^ended_after: /],
      ['ended_before=2026-13-01T00:00:00Z', /^ended_before: /],
      [
        `sort=duration&cursor=${sorted}`,
        /^cursor: must be a next_cursor value from an earlier page with the same sort$/,
      ],
      [`sort=-duration&cursor=${plain}`, /^cursor: .* with the same sort$/],
      [`cursor=${sorted}`, /^cursor: must be a next_cursor value from an earlier page$/],
    ];
    for (const [query, message] of cases) {
      const response = await service.request('GET', `/v1/client/jobs?name=${tag}&${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ ok: false, message: expect.stringMatching(message) });
    }
    // A bulk action's filter is the list's filters: no sort there.
    const bulk = await service.request('POST', '/v1/client/bulk-actions', {
      action: 'cancel',
      dry_run: true,
      filter: { name: tag, sort: 'duration' },
    });
    expect(bulk.status).toBe(400);
    expect(bulk.body.message).toMatch(/^filter\.sort: /);
  });
});
