import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FollowedEvents } from '../support/events';
import { submit } from '../support/jobs';
import { startService, testProjects, type TestService } from '../support/service';

/**
 * A subscriber that stops reading, against the whole service: its socket fills, the service
 * stops writing to it and holds what it wrote last, and the store keeps the rest. On the
 * simulated engine, so that jobs move fast enough to fill the socket's buffers.
 */
let service: TestService;
beforeAll(async () => {
  const projects = testProjects();
  // A queue wide enough for the simulated jobs to move fast.
  const t = { ...projects.t, queues: { ...projects.t.queues, wide: { max_running: 100 } } };
  service = await startService({
    projects: { ...projects, t },
    engine: {
      type: 'simulated',
      nodes: 4,
      slots_per_node: 25,
      start_ms: { min: 5, max: 20 },
      run_ms: { min: 20, max: 60 },
    },
    max_running: 200,
    metrics: { on_api_port: true },
    events: { streams_per_key: 4, heartbeat_seconds: 1 },
  });
});
afterAll(() => service?.stop());

const JOBS = 600;
/** Labels make each event some 2.2 KB, so the jobs' events (6.6 MB) overflow the sockets' buffers. */
const LABELS = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`l${i}`, 'x'.repeat(250)]));
/** A page of changes (200) of these events, rounded up: what the service may hold per stream. */
const BOUND_BYTES = 1024 * 1024;

/** An event stream over a bare socket, to stop reading it as a stuck client would. */
async function rawStream(): Promise<{ socket: Socket; received: () => string }> {
  const { hostname, port } = new URL(service.baseUrl);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.write(
    `GET /v1/client/events HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${service.key}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  const deadline = Date.now() + 10_000;
  while (!received.includes('id: ')) {
    if (Date.now() > deadline) throw new Error(`no stream: ${received}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { socket, received: () => received };
}

async function until(done: () => boolean, timeoutMs: number, state: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${state()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function buffered(): Promise<number> {
  const text = await fetch(`${service.baseUrl}/metrics`).then((r) => r.text());
  return Number(/^jobdeck_event_stream_buffered_bytes (\d+)$/m.exec(text)?.[1]);
}

/** The SSE events of a chunked body, ids in order (chunk framing taken out). */
function eventIds(raw: string): string[] {
  const body = raw
    .slice(raw.indexOf('\r\n\r\n') + 4)
    .replace(/(^|\r\n)[0-9a-f]+\r\n/g, '')
    .replace(/\r\n/g, '');
  return [...body.matchAll(/^id: (\S+)\nevent: job$/gm)].map((m) => m[1]!);
}

describe('a subscriber that stops reading', () => {
  it('is held to a bounded buffer while the others follow; it lags, then gets every event in order', async () => {
    const stuck = await rawStream();
    stuck.socket.pause();
    const follower = new FollowedEvents(service);
    try {
      await follower.open();
      const ids: string[] = [];
      let most = 0;
      for (let i = 0; i < JOBS; i += 50) {
        ids.push(
          ...(await Promise.all(
            Array.from({ length: 50 }, () =>
              submit(service, {
                job_definition: 't::echo:1',
                job_queue: 't::wide',
                labels: LABELS,
              }),
            ),
          )),
        );
        most = Math.max(most, await buffered());
      }
      // The one reading is not held back by the one that is not.
      const completed = () => follower.events.filter((e) => e.job.state === 'completed').length;
      await until(
        () => completed() === JOBS,
        120_000,
        () => `${completed()} of ${JOBS} completed`,
      );
      most = Math.max(most, await buffered());
      const followed = follower.events.map((e) => e.id);
      // The stuck stream filled its socket's buffers, then the service held one page: not all.
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(BOUND_BYTES);

      // Read again: every event comes, once and in order, none lost while it was stuck.
      stuck.socket.resume();
      await until(
        () => eventIds(stuck.received()).length >= followed.length,
        60_000,
        () => `${eventIds(stuck.received()).length} of ${followed.length} events`,
      );
      expect(eventIds(stuck.received())).toEqual(followed);
      expect(await buffered()).toBe(0);
    } finally {
      follower.close();
      stuck.socket.destroy();
    }
  }, 240_000);
});
