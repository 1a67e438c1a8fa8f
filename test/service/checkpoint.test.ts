import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';

const HANDED_OVER = 'writes are heavy: a worker thread checkpoints the SQLite WAL';
const CONNECTIONS = 16;

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

/**
 * Submits on `CONNECTIONS` connections until `stop(accepted so far)` is true or the service is gone
 * (a request that gets no answer ends its connection); the ids the service accepted.
 */
async function submitUntil(stop: (acceptedSoFar: number) => boolean): Promise<string[]> {
  const accepted: string[] = [];
  const connection = async () => {
    while (!stop(accepted.length)) {
      const answer = await service
        .request('POST', '/v1/client/job', { job_definition: 't::echo:1', job_queue: 't::paused' })
        .catch(() => undefined);
      if (!answer) return;
      if (answer.status === 202) accepted.push((answer.body.data as { id: string }).id);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  return accepted;
}

// PostgreSQL checkpoints on its own server; this is the embedded store's worker.
describe.skipIf(process.env.JOBDECK_TEST_STORE === 'postgres')('the SQLite checkpoint', () => {
  it('moves to a worker under a stream of submits, and a SIGKILL then loses no accepted job', async () => {
    const deadline = Date.now() + 30_000;
    let killedAt = 0;
    const accepted = await submitUntil((acceptedSoFar) => {
      if (killedAt === 0 && service.output().includes(HANDED_OVER)) {
        killedAt = Date.now() + 2_000; // two of the worker's checkpoints, then the kill
      }
      // A loaded machine hands over after fewer submits: go on until there are enough to count.
      if (killedAt > 0 && Date.now() >= killedAt && acceptedSoFar > 1_000) return true;
      return Date.now() > deadline;
    });
    expect(service.output()).toContain(HANDED_OVER);
    expect(accepted.length).toBeGreaterThan(1_000);

    // Killed with submits in flight: those it answered 202 before it died count too.
    const lastOnes = submitUntil(() => false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await service.stop('SIGKILL');
    accepted.push(...(await lastOnes));
    await service.restart();

    // Every job the service said it took is there, whole; so is the file.
    const missing: string[] = [];
    for (let i = 0; i < accepted.length; i += CONNECTIONS) {
      await Promise.all(
        accepted.slice(i, i + CONNECTIONS).map(async (id) => {
          const detail = await service.request('GET', `/v1/client/job/${id}`);
          if (detail.status !== 200 || (detail.body.data as { id: string }).id !== id) {
            missing.push(id);
          }
        }),
      );
    }
    expect(missing).toEqual([]);
    const file = new SqliteDatabase(join(service.dataDir, 'jobdeck.sqlite'), { readonly: true });
    try {
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      file.close();
    }
  });
});
