import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobExecution, JobList } from '../../contract';
import { detail, submit } from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Labels on Job Submit, shown in the list and the execution, found by the list's filter. */
let service: TestService;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const held = { job_definition: 't::echo:1', job_queue: 't::paused' };
const list = async (query: string) => {
  const response = await service.request('GET', `/v1/client/jobs?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as JobList;
};

describe('labels', () => {
  it('are kept, listed and shown in the execution; Job Detail keeps exactly the spec’s fields', async () => {
    const labels = { ticket: 'OPS-42', 'dataset/name': 'sales, 2026=Q4' };
    const id = await submit(service, { ...held, labels });
    const record = await detail(service, id);
    expect(Object.keys(record).sort()).toEqual([
      'created_at',
      'id',
      'name',
      'schedule_at',
      'state',
      'system_note',
      'updated_at',
    ]);
    const listed = await list('label=ticket=OPS-42');
    expect(listed.items.map((item) => [item.id, item.labels])).toEqual([[id, labels]]);
    const execution = (await service.request('GET', `/v1/client/job/${id}/execution`)).body
      .data as JobExecution;
    expect(execution.labels).toEqual(labels);
    // A job without labels has none in the list.
    const plain = await submit(service, held);
    const all = await list('queue=t::paused');
    expect(all.items.find((item) => item.id === plain)).not.toHaveProperty('labels');
  });

  it('filter the list by value, by key, and by several at once', async () => {
    const a = await submit(service, { ...held, labels: { team: 'data', run: '1' } });
    const b = await submit(service, { ...held, labels: { team: 'web' } });
    const c = await submit(service, { ...held, labels: { team: 'data', run: '2' } });
    const ids = async (query: string) => (await list(query)).items.map((item) => item.id);
    expect(await ids('label=team=data')).toEqual([c, a]);
    expect(await ids('label=team')).toEqual([c, b, a]);
    expect(await ids('label=team=data&label=run=1')).toEqual([a]);
    expect(await ids(`label=${encodeURIComponent('dataset/name=sales, 2026=Q4')}`)).toHaveLength(1);
    expect(await list('label=team=data&limit=1')).toMatchObject({ total: 2, total_exact: true });
    const firstPage = await list('label=team&limit=2');
    expect(firstPage.items.map((item) => item.id)).toEqual([c, b]);
    expect(await ids(`label=team&limit=2&cursor=${firstPage.next_cursor}`)).toEqual([a]);
  });

  it('refuses bad labels and bad label filters, naming the field, and stores nothing', async () => {
    const before = (await list('limit=200')).total;
    const refused: [unknown, string][] = [
      [{ 'bad key': 'x' }, 'labels.bad key: is not a valid label key'],
      [{ team: 'x'.repeat(257) }, 'labels.team: must be at most 256 bytes'],
      [{ team: 7 }, 'labels.team: must be a string'],
      [
        Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])),
        'labels: must have at most 16 labels',
      ],
      ['team=data', 'labels: must be an object of string values'],
    ];
    for (const [labels, message] of refused) {
      const response = await service.request('POST', '/v1/client/job', { ...held, labels });
      expect(response.status, JSON.stringify(labels)).toBe(400);
      expect(response.body.ok).toBe(false);
      expect(response.body.message, JSON.stringify(labels)).toContain(message);
    }
    const reserved = await service.request(
      'POST',
      '/v1/client/job',
      JSON.parse(
        '{"job_definition":"t::echo:1","job_queue":"t::paused","labels":{"__proto__":"x"}}',
      ),
    );
    expect(reserved.body.message).toContain('labels.__proto__: is a reserved name');
    expect((await list('limit=200')).total).toBe(before);

    for (const query of ['label=bad key', 'label==x', 'label=a&label=b&label=c&label=d&label=e']) {
      const response = await service.request('GET', `/v1/client/jobs?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.message, query).toMatch(/^label/);
    }
  });
});
