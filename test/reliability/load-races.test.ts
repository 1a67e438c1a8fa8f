import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFinalState, type JobState } from '../../contract';
import { canMove } from '../../server/jobs/state-machine';
import { transitionTimes, waitForState } from '../support/jobs';
import { startService, type ApiResponse, type TestService } from '../support/service';
import { StatusTally, expectErrorEnvelope } from './answers';
import { budget, recordFigure, timed } from './figures';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

interface Transition {
  from: JobState | null;
  to: JobState;
}

async function historyOf(id: string): Promise<Transition[]> {
  const response = await service.request('GET', `/v1/client/job/${id}/transitions`);
  expect(response.status).toBe(200);
  return (response.body.data as { items: Transition[] }).items;
}

/** One chain from `submitted`, each step legal, and exactly one final state, at the end. */
function expectConsistent(history: Transition[], id: string) {
  expect(history[0], id).toMatchObject({ from: null, to: 'submitted' });
  for (let i = 1; i < history.length; i += 1) {
    const { from, to } = history[i]!;
    expect(from, `${id} step ${i}`).toBe(history[i - 1]!.to);
    expect(canMove(from!, to), `${id}: ${from} → ${to}`).toBe(true);
  }
  const finals = history.filter((t) => isFinalState(t.to));
  expect(finals, id).toHaveLength(1);
  expect(history.at(-1), id).toBe(finals[0]);
}

/** Runs `work` for each item with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ]!;

describe('load', () => {
  it('many concurrent submits: every one accepted once, with an id of its own, readable', async () => {
    const total = budget({ full: 1000, ci: 200 });
    const clients = budget({ full: 50, ci: 20 });
    const latencies: number[] = [];
    const tally = new StatusTally();
    // The paused queue stores and holds them: this measures the API, not the engine.
    const { result: ids, ms } = await timed(() =>
      pool([...Array(total).keys()], clients, async (i) => {
        const { result, ms: took } = await timed(() =>
          service.request('POST', '/v1/client/job', {
            job_definition: 't::echo:1',
            job_queue: 't::paused',
            name: `load-${i}`,
          }),
        );
        latencies.push(took);
        tally.add(result.status);
        expect(result.status, result.text).toBe(202);
        return (result.body.data as { id: string }).id;
      }),
    );
    expect(new Set(ids).size).toBe(total);
    const reads = await pool(ids, clients, (id) => service.request('GET', `/v1/client/job/${id}`));
    for (const [index, read] of reads.entries()) {
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        id: ids[index],
        name: `load-${index}`,
        state: 'runnable',
      });
    }
    expect(tally.counts['5xx']).toBe(0);
    recordFigure(
      `load: ${total} submits from ${clients} clients, throughput`,
      total / (ms / 1000),
      'submits/s',
    );
    recordFigure('load: submit latency p50', percentile(latencies, 50), 'ms');
    recordFigure('load: submit latency p99', percentile(latencies, 99), 'ms');
    recordFigure('load: distinct ids', new Set(ids).size, 'ids');
  });
});

describe('races', () => {
  it('20 concurrent submits of one name to one queue: exactly one accepted, the others name it', async () => {
    const rounds = budget({ full: 10, ci: 3 });
    let acceptedTotal = 0;
    for (let round = 0; round < rounds; round += 1) {
      const name = `contested-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          service.request('POST', '/v1/client/job', {
            job_definition: 't::echo:1',
            job_queue: 't::paused',
            name,
          }),
        ),
      );
      const winners = answers.filter((a) => a.status === 202);
      acceptedTotal += winners.length;
      expect(winners).toHaveLength(1);
      const holder = (winners[0]!.body.data as { id: string }).id;
      for (const loser of answers.filter((a) => a.status !== 202)) {
        expect(loser.status).toBe(400);
        expect(expectErrorEnvelope(loser.text, name)).toBe(
          `name: "${name}" is already held by job ${holder} in queue t::paused, which has not finished`,
        );
      }
    }
    recordFigure(
      `race: one name, 20 concurrent submits × ${rounds} rounds — accepted`,
      acceptedTotal,
      `of ${rounds * 20}`,
    );
  });

  it('20 concurrent cancels of one running job: all accepted, one cancelling, one final state', async () => {
    const rounds = budget({ full: 5, ci: 2 });
    let finalStates = 0;
    for (let round = 0; round < rounds; round += 1) {
      const submitted = await service.request('POST', '/v1/client/job', {
        job_definition: 't::sleep:1',
        job_queue: 't::default',
      });
      const id = (submitted.body.data as { id: string }).id;
      await waitForState(service, id, 'running');
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => service.request('POST', `/v1/client/job/${id}/cancel`)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
      await waitForState(service, id, 'cancelled');
      const history = await historyOf(id);
      expectConsistent(history, id);
      expect(history.filter((t) => t.to === 'cancelling')).toHaveLength(1);
      finalStates += history.filter((t) => isFinalState(t.to)).length;
    }
    recordFigure(
      `race: 20 concurrent cancels × ${rounds} running jobs — final states recorded`,
      finalStates,
      `for ${rounds} jobs`,
    );
  });

  it('cancels racing the container’s own exit: one final state each, agreeing with the answer', async () => {
    const jobs = budget({ full: 40, ci: 10 });
    const runMs = 1000;
    const outcomes = { cancelled: 0, completed: 0 };
    const tally = new StatusTally();
    await pool([...Array(jobs).keys()], 4, async (i) => {
      const submitted = await service.request('POST', '/v1/client/job', {
        job_definition: 't::sh:1',
        job_queue: 't::default',
        container_cmd_parameter: { script: 'sleep 1' },
      });
      const id = (submitted.body.data as { id: string }).id;
      await waitForState(service, id, 'running', 60_000, 20);
      const startedAt = (await transitionTimes(service, id)).get('running')!;
      // Spread the cancels from 300 ms before to 300 ms after the container's own end.
      const offset = -300 + (600 * i) / Math.max(1, jobs - 1);
      await new Promise((r) => setTimeout(r, Math.max(0, startedAt + runMs + offset - Date.now())));
      const answer: ApiResponse = await service.request('POST', `/v1/client/job/${id}/cancel`);
      tally.add(answer.status);
      const final = await waitForState(
        service,
        id,
        ['cancelled', 'completed', 'failed', 'error'],
        60_000,
      );
      expectConsistent(await historyOf(id), id);
      // 202 means the cancel won (a container that exits while cancelling still ends cancelled);
      // 409 means the job had already completed.
      if (answer.status === 202) expect(final.state, id).toBe('cancelled');
      else {
        expect(answer.status, answer.text).toBe(409);
        expect(final.state, id).toBe('completed');
      }
      outcomes[final.state as 'cancelled' | 'completed'] += 1;
    });
    expect(tally.counts['5xx']).toBe(0);
    recordFigure('race: cancel vs exit — jobs', jobs, 'jobs');
    recordFigure('race: cancel vs exit — ended cancelled', outcomes.cancelled, 'jobs');
    recordFigure(
      'race: cancel vs exit — ended completed (cancel answered 409)',
      outcomes.completed,
      'jobs',
    );
    recordFigure('race: cancel vs exit — 5xx answers', tally.counts['5xx'], 'answers');
  });
});
