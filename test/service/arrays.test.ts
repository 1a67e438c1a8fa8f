import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArrayAnswer, JobState } from '../../contract';
import { ContainerStarts } from '../support/engine-events';
import {
  detail,
  logsOf,
  submit,
  transitions,
  waitForState,
  shScript as script,
} from '../support/jobs';
import { startService, type TestService } from '../support/service';

/** Array jobs on real containers: one submit, a parent that sums up its children. */
const starts = new ContainerStarts();
let service: TestService;

beforeAll(async () => {
  await starts.started();
  service = await startService({ reconcile_interval_seconds: 1 });
});
afterAll(async () => {
  await service.stop();
  starts.stop();
});

async function arrayOf(id: string, query = ''): Promise<ArrayAnswer> {
  const response = await service.request('GET', `/v1/client/job/${id}/array${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as ArrayAnswer;
}

const stateCounts = (answer: ArrayAnswer) =>
  Object.fromEntries(Object.entries(answer.counts).filter(([, n]) => n > 0)) as Partial<
    Record<JobState, number>
  >;

describe('array jobs', () => {
  it('runs each child once with its index, in the queue’s slots, and completes the parent when all completed', async () => {
    const parent = await submit(service, {
      ...script('echo "child $JOBDECK_ARRAY_INDEX of $JOBDECK_ARRAY_SIZE"; sleep 0.5'),
      name: 'fan-out',
      array: { size: 6 },
    });
    // Job Detail of the parent stays the spec's record.
    const record = await detail(service, parent);
    expect(Object.keys(record).sort()).toEqual(
      ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
    );
    expect(record.name).toBe('fan-out');

    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled']);
    expect(done.state).toBe('completed');
    expect(done.system_note).toBe('6 of 6 completed');

    const answer = await arrayOf(parent);
    expect(answer).toMatchObject({ size: 6, parent_id: null, index: null, next_cursor: null });
    expect(stateCounts(answer)).toEqual({ completed: 6 });
    expect(answer.items.map((c) => [c.index, c.name, c.state, c.exit_code])).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => [i, `fan-out:${i}`, 'completed', 0]),
    );
    const started = await starts.byJob();
    for (const child of answer.items) {
      expect(started.get(child.id)).toBe(1);
      expect(await logsOf(service, child.id)).toBe(`child ${child.index} of 6\n`);
      const place = await arrayOf(child.id);
      expect(place).toMatchObject({ size: null, parent_id: parent, index: child.index, items: [] });
      expect(await detail(service, child.id)).toMatchObject({ state: 'completed' });
    }
    // The parent ran nothing of its own, and went through running to completed.
    expect(started.get(parent)).toBeUndefined();
    const states = (await transitions(service, parent)).map((t) => t.to);
    expect(states).toEqual(['submitted', 'runnable', 'running', 'completed']);

    // The queue's max_running (4) held: never more than 4 children between starting and ending.
    const moves = await Promise.all(answer.items.map((c) => transitions(service, c.id)));
    const edges = moves.flatMap((history) => {
      const start = history.find((t) => t.to === 'starting')!.at;
      const end = history.find((t) => t.to === 'completed')!.at;
      return [
        { at: Date.parse(start), delta: 1 },
        { at: Date.parse(end), delta: -1 },
      ];
    });
    edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let held = 0;
    let most = 0;
    for (const edge of edges) most = Math.max(most, (held += edge.delta));
    expect(most).toBeLessThanOrEqual(4);

    // Children are listed under their parent, not in the job list.
    const listed = await service.request('GET', '/v1/client/jobs?name=fan-out');
    expect((listed.body.data as { items: { id: string }[] }).items.map((j) => j.id)).toEqual([
      parent,
    ]);
  });

  it('fails the parent when a child fails, with the counts in its note, and pages children by state', async () => {
    const parent = await submit(service, {
      ...script('[ "$JOBDECK_ARRAY_INDEX" != 2 ] || exit 3'),
      array: { size: 5 },
    });
    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled']);
    expect(done.state).toBe('failed');
    expect(done.system_note).toBe('4 of 5 completed, 1 failed');
    const failed = await arrayOf(parent, '?state=failed');
    expect(failed.items.map((c) => [c.index, c.exit_code])).toEqual([[2, 3]]);
    const first = await arrayOf(parent, '?limit=2');
    expect(first.items.map((c) => c.index)).toEqual([0, 1]);
    expect(first.next_cursor).toBe('1');
    const second = await arrayOf(parent, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((c) => c.index)).toEqual([2, 3]);
  });

  it('cancels every child not yet ended when the parent is cancelled, and ends the parent cancelled', async () => {
    const parent = await submit(service, { ...script('sleep 30'), array: { size: 8 } });
    // Wait until some run (4 slots) and the rest wait.
    await waitForState(service, parent, 'running');
    const cancel = await service.request('POST', `/v1/client/job/${parent}/cancel`);
    expect(cancel.status).toBe(202);
    const again = await service.request('POST', `/v1/client/job/${parent}/cancel`);
    expect(again.status).toBe(202);
    const done = await waitForState(service, parent, ['cancelled', 'failed', 'completed']);
    expect(done.state).toBe('cancelled');
    const answer = await arrayOf(parent);
    expect(stateCounts(answer)).toEqual({ cancelled: 8 });
    const notesSeen = new Set(answer.items.map((c) => c.system_note));
    expect([...notesSeen].some((n) => n?.startsWith('cancelled with its array'))).toBe(true);
    // Cancel Job is idempotent for a parent as for any job (see cancel.test.ts).
    const late = await service.request('POST', `/v1/client/job/${parent}/cancel`);
    expect(late.status).toBe(202);
  });

  it('waits for its dependency as one: children are released when it is met', async () => {
    const first = await submit(service, script('sleep 1'));
    const parent = await submit(service, {
      ...script('true'),
      array: { size: 3 },
      depends_on: [{ job_id: first }],
    });
    const waiting = await detail(service, parent);
    expect(waiting.state).toBe('pending');
    expect(stateCounts(await arrayOf(parent))).toEqual({ pending: 3 });
    expect((await arrayOf(parent)).items[0]!.system_note).toBe(
      `waiting until its array (job ${parent}) may start`,
    );
    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled']);
    expect(done.state).toBe('completed');
  });

  it('gives every child the parent’s sensitive values, never shown: redacted in its output, hidden in its execution', async () => {
    const secret = 'array-secret-5f3a9c';
    const parent = await submit(service, {
      ...script('echo "token=$TOKEN index=$JOBDECK_ARRAY_INDEX"'),
      container_env: { TOKEN: { value: secret, sensitive: true } },
      array: { size: 2 },
    });
    expect((await waitForState(service, parent, ['completed', 'failed'])).state).toBe('completed');
    for (const child of (await arrayOf(parent)).items) {
      expect(await logsOf(service, child.id)).toBe(`token=[TOKEN redacted] index=${child.index}\n`);
      const execution = await service.request('GET', `/v1/client/job/${child.id}/execution`);
      expect(execution.text).not.toContain(secret);
      expect(execution.body.data).toMatchObject({
        env: expect.arrayContaining([
          { name: 'TOKEN', sensitive: true, value: null },
          { name: 'JOBDECK_ARRAY_INDEX', sensitive: false, value: String(child.index) },
          { name: 'JOBDECK_ARRAY_SIZE', sensitive: false, value: '2' },
        ]),
      });
    }
  });

  it('runs sequential children one after the other, and n_to_n children after the same child of another array', async () => {
    const first = await submit(service, {
      ...script('sleep 0.3; echo $JOBDECK_ARRAY_INDEX'),
      array: { size: 3 },
      depends_on: [{ type: 'sequential' }],
    });
    const second = await submit(service, {
      ...script('true'),
      array: { size: 3 },
      depends_on: [{ job_id: first, type: 'n_to_n' }],
    });
    for (const id of [first, second]) {
      expect((await waitForState(service, id, ['completed', 'failed', 'cancelled'])).state).toBe(
        'completed',
      );
    }
    const firsts = (await arrayOf(first)).items;
    const seconds = (await arrayOf(second)).items;
    const at = async (id: string, to: string) =>
      Date.parse((await transitions(service, id)).find((t) => t.to === to)!.at);
    for (let i = 1; i < 3; i += 1) {
      expect(await at(firsts[i]!.id, 'starting')).toBeGreaterThanOrEqual(
        await at(firsts[i - 1]!.id, 'completed'),
      );
    }
    for (let i = 0; i < 3; i += 1) {
      expect(await at(seconds[i]!.id, 'starting')).toBeGreaterThanOrEqual(
        await at(firsts[i]!.id, 'completed'),
      );
      const waited = await service.request('GET', `/v1/client/job/${seconds[i]!.id}/dependencies`);
      expect((waited.body.data as { depends_on: { job_id: string }[] }).depends_on).toEqual([
        expect.objectContaining({ job_id: firsts[i]!.id, type: 'afterok', status: 'met' }),
      ]);
    }
  });

  it('cancels the rest of a sequential array when a child fails, and the parent ends failed', async () => {
    const parent = await submit(service, {
      ...script('[ "$JOBDECK_ARRAY_INDEX" != 1 ] || exit 4'),
      array: { size: 4 },
      depends_on: [{ type: 'sequential' }],
    });
    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled']);
    expect(done.state).toBe('failed');
    expect(done.system_note).toBe('1 of 4 completed, 1 failed, 2 cancelled');
    const children = (await arrayOf(parent)).items;
    expect(children.map((c) => c.state)).toEqual(['completed', 'failed', 'cancelled', 'cancelled']);
    expect(children[2]!.system_note).toMatch(/^cancelled: it was to start after job .*:1 /);
  });

  it('refuses n_to_n and sequential where they cannot hold, naming the field', async () => {
    const plain = await submit(service, script('true'));
    const small = await submit(service, { ...script('true'), array: { size: 2 } });
    const some = await submit(service, { ...script('true'), array: { size: 3, indexes: [0, 2] } });
    for (const [payload, message] of [
      [
        { depends_on: [{ type: 'sequential' }] },
        'depends_on[0].type: sequential is for array jobs (each child waits); give array.size, or use afterok',
      ],
      [
        { array: { size: 3 }, depends_on: [{ job_id: plain, type: 'n_to_n' }] },
        `depends_on[0].job_id: job ${plain} is not an array job, so n_to_n has no child to follow`,
      ],
      [
        { array: { size: 3 }, depends_on: [{ job_id: small, type: 'n_to_n' }] },
        `depends_on[0].job_id: job ${small} has 2 children and this array 3: n_to_n needs the same size`,
      ],
      [
        { array: { size: 3 }, depends_on: [{ job_id: plain, type: 'sequential' }] },
        'depends_on[0].job_id: must be left out for sequential (each child waits for the one before it)',
      ],
      [
        { array: { size: 3 }, depends_on: [{ type: 'n_to_n' }] },
        'depends_on[0].job_id: is required: the id of a job of this project',
      ],
      [
        { array: { size: 3, indexes: [0, 2] }, depends_on: [{ type: 'sequential' }] },
        'array.indexes: cannot be given with a sequential dependency, whose children follow by index',
      ],
      [
        { array: { size: 3 }, depends_on: [{ job_id: some, type: 'n_to_n' }] },
        `depends_on[0].job_id: job ${some} runs only some of its indexes, so n_to_n has no child to follow for each`,
      ],
    ] as const) {
      const response = await service.request('POST', '/v1/client/job', {
        job_queue: 't::default',
        ...script('true'),
        ...payload,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ ok: false, message });
    }
  });

  it('runs only the indexes given (array.indexes), each with its index and the array’s size, and says which', async () => {
    const parent = await submit(service, {
      ...script('echo "child $JOBDECK_ARRAY_INDEX of $JOBDECK_ARRAY_SIZE"'),
      name: 'again',
      array: { size: 6, indexes: [4, 1] },
    });
    const done = await waitForState(service, parent, ['completed', 'failed', 'cancelled']);
    expect([done.state, done.system_note]).toEqual(['completed', '2 of 2 completed']);
    const answer = await arrayOf(parent);
    expect(answer).toMatchObject({ size: 6, indexes: [1, 4], next_cursor: null });
    expect(answer.items.map((c) => [c.index, c.name, c.state])).toEqual([
      [1, 'again:1', 'completed'],
      [4, 'again:4', 'completed'],
    ]);
    const started = await starts.byJob();
    for (const child of answer.items) {
      expect(started.get(child.id)).toBe(1);
      expect(await logsOf(service, child.id)).toBe(`child ${child.index} of 6\n`);
    }
    // An array of every index says nothing of indexes: a client of the spec's fields sees no more.
    const whole = await submit(service, { ...script('true'), array: { size: 2 } });
    expect(await arrayOf(whole)).not.toHaveProperty('indexes');
  });

  it('refuses a bad array with the field and the reason, storing nothing', async () => {
    for (const [array, message] of [
      [{ size: 1 }, 'array.size: must be at least 2'],
      [{ size: 10_001 }, 'array.size: must be at most 10000'],
      [{ size: 2.5 }, 'array.size: must be a whole number'],
      [{}, 'array.size: is required: how many children, a whole number'],
      [{ size: '5' }, 'array.size: must be a number: how many children, a whole number'],
      [{ size: 3, extra: 1 }, 'array.extra: is not a field of this payload'],
      [{ size: 3, indexes: [3] }, 'array.indexes[0]: must be below array.size (3)'],
      [{ size: 3, indexes: [1, 1] }, 'array.indexes[1]: 1 is listed twice'],
      [{ size: 3, indexes: [] }, 'array.indexes: must list at least one index'],
      [{ size: 3, indexes: [-1] }, 'array.indexes[0]: must be 0 or more'],
      [{ size: 3, indexes: '1' }, 'array.indexes: must be an array of indexes, like [3, 7]'],
    ] as const) {
      const response = await service.request('POST', '/v1/client/job', {
        job_queue: 't::default',
        ...script('true'),
        array,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ ok: false, message });
    }
  });
});
