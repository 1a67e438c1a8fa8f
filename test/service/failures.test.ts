import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkDryRun, Failures, JobList } from '../../contract';
import { listPage, shScript, submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
const byCause: Record<'upstream' | 'disk' | 'ghost', string[]> = {
  upstream: [],
  disk: [],
  ghost: [],
};

/** A filter object as the list's query string: repeated fields repeated. */
const queryOf = (filter: Record<string, unknown>) =>
  Object.entries(filter)
    .flatMap(([key, value]) => [value].flat().map((v) => `${key}=${encodeURIComponent(String(v))}`))
    .join('&');

async function failures(query: string): Promise<Failures> {
  const answer = await service.request('GET', `/v1/client/failures?${query}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Failures;
}

beforeAll(async () => {
  service = await startService();
  const labels = { batch: 'causes' };
  const upstream = shScript(
    'echo starting; echo "error: upstream returned 503" >&2; echo done; exit 1',
  );
  for (let i = 0; i < 3; i += 1)
    byCause.upstream.push(await submit(service, { ...upstream, labels }));
  const disk = shScript('echo "writing"; echo "fatal: disk full"; exit 2');
  for (let i = 0; i < 2; i += 1) byCause.disk.push(await submit(service, { ...disk, labels }));
  byCause.ghost.push(await submit(service, { job_definition: 't::ghost:1', labels }));
  const completed = await submit(service, { ...shScript('echo fine'), labels });
  for (const id of [...Object.values(byCause).flat(), completed]) {
    await waitForState(service, id, ['completed', 'failed', 'error'], 90_000);
  }
}, 120_000);
afterAll(() => service.stop());

describe('failures grouped by cause', () => {
  it('groups by exit code and last error line (a note for error), largest first', async () => {
    const found = await failures('label=batch=causes');
    expect(found.examined).toBe(6);
    expect(found.more).toBe(false);
    const ghostNote = (await listPage(service, `id=${byCause.ghost[0]}`)).items[0]!.system_note;
    expect(ghostNote).toBeTruthy();
    expect(
      found.groups.map(({ count, state, exit_code, cause, cause_from }) => ({
        count,
        state,
        exit_code,
        cause,
        cause_from,
      })),
    ).toEqual([
      {
        count: 3,
        state: 'failed',
        exit_code: 1,
        cause: 'error: upstream returned 503',
        cause_from: 'output',
      },
      { count: 2, state: 'failed', exit_code: 2, cause: 'fatal: disk full', cause_from: 'output' },
      { count: 1, state: 'error', exit_code: null, cause: ghostNote, cause_from: 'note' },
    ]);
    expect(found.groups[0]!.newest.job_id).toBe(byCause.upstream.at(-1));
  });

  it("each group's filter selects exactly its jobs, in the list and a bulk action", async () => {
    const { groups } = await failures('label=batch=causes');
    for (const [group, ids] of groups.map((g, i) => [g, Object.values(byCause)[i]!] as const)) {
      const listed: JobList = await listPage(service, queryOf(group.filter));
      expect(listed.items.map((job) => job.id).sort()).toEqual([...ids].sort());
      const dry = await service.request('POST', '/v1/client/bulk-actions', {
        action: 'resubmit',
        filter: group.filter,
        dry_run: true,
      });
      expect((dry.body.data as BulkDryRun).matched).toBe(ids.length);
    }
  });

  it('keeps to the filter: states without failures give no group, and bad input is refused', async () => {
    expect(await failures('label=batch=causes&state=completed')).toEqual({
      examined: 0,
      more: false,
      groups: [],
    });
    const error = await failures('label=batch=causes&state=error');
    expect(error.groups.map((g) => g.count)).toEqual([1]);
    const refused = await service.request('GET', '/v1/client/failures?id=nope');
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { ok: false, message: 'id[0]: must be a job id (a UUID)' },
    });
  });
});
