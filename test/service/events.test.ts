import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSITION_TOKEN, type JobListItem } from '../../contract';
import { FollowedEvents, openEventStream, untilText } from '../support/events';
import { submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startService({ events: { streams_per_key: 3, heartbeat_seconds: 1 } });
});
afterAll(() => service?.stop());

const LIFECYCLE = ['submitted', 'runnable', 'starting', 'running', 'completed'];

async function listRow(id: string): Promise<JobListItem> {
  const page = await service.request('GET', '/v1/client/jobs?limit=200');
  return (page.body.data as { items: JobListItem[] }).items.find((j) => j.id === id)!;
}

describe('the event stream', () => {
  it("tells every state change of the project's jobs, in order, each with the job as a list row", async () => {
    const stream = new FollowedEvents(service);
    try {
      await stream.open();
      const otherKey = await service.cli('keys', 'create', '--project', 'other');
      const theirs = await service.request(
        'POST',
        '/v1/client/job',
        { job_definition: 'other::echo:1', job_queue: 'other::default' },
        otherKey,
      );
      expect(theirs.status).toBe(202);
      const id = await submit(service, { job_definition: 't::echo:1' });
      await stream.expectLifecycles([id], LIFECYCLE);
      // The last event is the job as the list shows it; another project's job never shows.
      expect(stream.events.at(-1)!.job).toEqual(await listRow(id));
      const theirId = (theirs.body.data as { id: string }).id;
      expect(stream.events.some((e) => e.job.id === theirId)).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('resumes after Last-Event-ID when the service restarts: no event lost, none twice', async () => {
    const stream = new FollowedEvents(service);
    try {
      await stream.open();
      const script = 'sleep 2; echo done';
      const jobs = await Promise.all(
        [1, 2, 3].map(() =>
          submit(service, { job_definition: 't::sh:1', container_cmd_parameter: { script } }),
        ),
      );
      await stream.until(() => jobs.every((id) => stream.statesOf(id).includes('running')));
      // The stream ends with the service; the EventSource reconnects by itself and resumes.
      await service.restart();
      await stream.until(() => stream.opened >= 2, 60_000, 'a reconnection');
      for (const id of jobs) await waitForState(service, id, 'completed');
      await stream.expectLifecycles(jobs, LIFECYCLE);
    } finally {
      stream.close();
    }
  });

  it('starts from now with a lone id line, and resumes from ?since= (Last-Event-ID wins)', async () => {
    const now = await openEventStream(service);
    const head = await untilText(now.text, /^retry: \d+\nid: \S+\n\n/);
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    // The job's five changes, each with its id (nothing else ran meanwhile).
    const followed = await untilText(now.text, /(event: job\n[^]*){5}/);
    now.close();
    const ids = [...followed.matchAll(/^id: (\S+)\nevent: job$/gm)].map((m) => m[1]!);
    expect(ids).toHaveLength(5);
    // Opaque: the same token shape for the stream's start and each change, no counter to read.
    for (const token of [/^id: (\S+)$/m.exec(head)![1]!, ...ids]) {
      expect(token).toMatch(POSITION_TOKEN);
    }

    const since = await openEventStream(service, {}, `?since=${ids[2]}`);
    const text = await untilText(since.text, /(event: job\n[^]*){2}/);
    since.close();
    expect([...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1])).toEqual([ids[3], ids[4]]);
    const both = await openEventStream(service, { 'last-event-id': ids[3]! }, `?since=${ids[1]}`);
    const resumed = await untilText(both.text, /event: job/);
    both.close();
    expect(/^id: (\S+)$/m.exec(resumed)![1]).toBe(ids[4]);

    // Another project's key cannot resume from this project's id: a reset, nothing replayed.
    const otherKey = (await service.cli('keys', 'create', '--project', 'other')).trim();
    const other = await openEventStream(
      service,
      { authorization: `Bearer ${otherKey}` },
      `?since=${ids[0]}`,
    );
    const reset = await untilText(other.text, /event: reset\n/);
    other.close();
    expect(reset).not.toContain('event: job');
    // A numeric id of release 0.1, from a console open across the upgrade: a reset too.
    const old = await openEventStream(service, { 'last-event-id': '17' });
    expect(await untilText(old.text, /event: reset\n/)).not.toContain('event: job');
    old.close();
  });

  it('sends heartbeats while nothing happens', async () => {
    const stream = await openEventStream(service);
    try {
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('cache-control')).toBe('no-store');
      await untilText(stream.text, /: heartbeat\n\n: heartbeat\n\n/, 15_000);
    } finally {
      stream.close();
    }
  });

  it('holds a few streams per key: one more is a 429 in the envelope, a closed one frees its place', async () => {
    const open = await Promise.all([1, 2, 3].map(() => openEventStream(service)));
    try {
      const refused = await service.request('GET', '/v1/client/events');
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        ok: false,
        message: 'events: at most 3 event streams per API key at once; close one first',
      });
      open.pop()!.close();
      await new Promise((r) => setTimeout(r, 500)); // the service notices the close
      const again = await openEventStream(service);
      expect(again.response.status).toBe(200);
      open.push(again);
    } finally {
      for (const stream of open) stream.close();
    }
  });

  it('refuses a bad Last-Event-ID or since, naming it, and a missing key', async () => {
    const header = await openEventStream(service, { 'last-event-id': 'yesterday' });
    expect(header.response.status).toBe(400);
    await header.ended;
    expect(JSON.parse(header.text())).toEqual({
      ok: false,
      message: 'Last-Event-ID: must be the id of an earlier event',
    });
    const query = await service.request('GET', '/v1/client/events?since=-1');
    expect(query.status).toBe(400);
    expect(query.body.message).toMatch(/^since: /);
    expect((await service.request('GET', '/v1/client/events', undefined, null)).status).toBe(401);
  });

  it('ends a stream at the next heartbeat once its key is revoked', async () => {
    const key = await service.cli('keys', 'create', '--project', 't', '--label', 'to-revoke');
    const id = (await service.cli('keys', 'list'))
      .split('\n')
      .find((line) => line.endsWith('to-revoke'))!
      .split('\t')[0]!;
    const stream = await openEventStream(service, { authorization: `Bearer ${key}` });
    await untilText(stream.text, /id: \S+\n\n/);
    await service.cli('keys', 'revoke', id);
    await stream.ended; // the service ended it
    expect(stream.text()).not.toMatch(/event: job/);
  });
});

describe('a service with streams open', () => {
  it('stops on SIGTERM at once and cleanly, ending every stream', async () => {
    const own = await startService();
    const streams = await Promise.all([1, 2].map(() => openEventStream(own)));
    for (const stream of streams) await untilText(stream.text, /id: \S+\n\n/);
    // The CLI's hard stop after 10 s would exit with 1.
    expect(await own.stop('SIGTERM')).toBe(0);
    await Promise.all(streams.map((s) => s.ended));
  });
});
