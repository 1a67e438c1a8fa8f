import { Agent, request, type IncomingMessage } from 'node:http';
import { startService, type TestService } from '../../test/support/service';
import { BENCH_SETTINGS, cpuMs, rssMiB } from '../jobdeck-client';
import { percentile, round, sleep } from '../stats';

/**
 * Issue 27's watchers: many event-stream subscribers while jobs move, on the simulated engine
 * (so the transitions are not bound by a container engine) and the embedded store. A sample of
 * the streams parses every event and times it from the change (the job's updated_at) to its
 * arrival; the others read and discard, as idle dashboards would; one stops reading altogether.
 * The load generator shares the machine's cores with the service.
 */
const PARSED_STREAMS = 50;
/** Each job makes five changes, each an event: submitted, runnable, starting, running, completed. */
const TRANSITIONS_PER_JOB = 5;

interface Stream {
  response: IncomingMessage;
  close(): void;
}

export function openStream(service: TestService, onData: (chunk: Buffer) => void): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const url = new URL('/v1/client/events', service.baseUrl);
    const sent = request(
      url,
      { headers: { authorization: `Bearer ${service.key}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`events: ${response.statusCode}`));
          return;
        }
        response.on('data', onData);
        resolve({ response, close: () => sent.destroy() });
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

const UPDATED_AT = '"updated_at":"';

/**
 * Delays of the job events in an SSE byte stream, from each job's updated_at to now. Cheap on
 * purpose (the load generator shares the cores with the service): it finds the field by its
 * text rather than parsing each event's JSON; a list row has one updated_at, a control line none.
 */
function delayMeter(delays: number[]) {
  let pending = '';
  return (chunk: Buffer) => {
    const now = Date.now();
    pending += chunk.toString();
    const last = pending.lastIndexOf('\n\n');
    if (last < 0) return;
    let at = pending.indexOf(UPDATED_AT);
    while (at >= 0 && at < last) {
      const start = at + UPDATED_AT.length;
      delays.push(now - Date.parse(pending.slice(start, pending.indexOf('"', start))));
      at = pending.indexOf(UPDATED_AT, start);
    }
    pending = pending.slice(last + 2);
  };
}

/**
 * Submits over a few kept-alive connections. fetch opened a connection per submit in flight, and
 * once the service fell behind those piled up into connect timeouts and resets of their own.
 */
function submitter(service: TestService) {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const url = new URL('/v1/client/job', service.baseUrl);
  const body = JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::wide' });
  return {
    submit: () =>
      new Promise<void>((resolve, reject) => {
        const sent = request(
          url,
          {
            method: 'POST',
            agent,
            headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () =>
              response.statusCode === 202
                ? resolve()
                : reject(new Error(`submit: ${response.statusCode}`)),
            );
          },
        );
        sent.on('error', reject);
        sent.end(body);
      }),
    close: () => agent.destroy(),
  };
}

export async function watchers(
  streams: number,
  transitionsPerSecond: number,
  seconds: number,
  /** Node's flags for the service (`--cpu-prof` to see where its time goes). */
  nodeArgs: string[] = [],
) {
  const service = await startService(
    {
      ...BENCH_SETTINGS,
      engine: {
        type: 'simulated',
        nodes: 50,
        slots_per_node: 40,
        start_ms: { min: 20, max: 100 },
        run_ms: { min: 500, max: 1500 },
      },
      max_running: 2000,
      events: { streams_per_key: streams + 10 },
    },
    undefined,
    { nodeArgs },
  );
  const open: Stream[] = [];
  const submits = submitter(service);
  try {
    const delays: number[] = [];
    let discardedBytes = 0;
    for (let i = 0; i < streams; i += 1) {
      const onData =
        i < PARSED_STREAMS
          ? delayMeter(delays)
          : (chunk: Buffer) => (discardedBytes += chunk.length);
      open.push(await openStream(service, onData));
    }
    // One subscriber that stops reading: what it costs the service must stay bounded.
    const stalled = await openStream(service, () => undefined);
    stalled.response.pause();
    open.push(stalled);
    const rssBefore = rssMiB(service.pid());
    const cpuBefore = cpuMs(service.pid());
    const benchCpuBefore = process.cpuUsage();

    const jobsPerSecond = transitionsPerSecond / TRANSITIONS_PER_JOB;
    const begin = Date.now();
    let submitted = 0;
    // Past what the machine can fan out, a submit can time out: counted, not fatal to the figure.
    let failedSubmits = 0;
    let firstFailure: string | undefined;
    const sent: Promise<unknown>[] = [];
    while (Date.now() - begin < seconds * 1000) {
      const due = Math.floor(((Date.now() - begin) / 1000) * jobsPerSecond);
      for (; submitted < due; submitted += 1) {
        sent.push(
          submits.submit().catch((error: unknown) => {
            failedSubmits += 1;
            firstFailure ??= String(error);
          }),
        );
      }
      await sleep(20);
    }
    // Of one core, over the load's window: whether the service or its load generator took the
    // machine (the tail below, while the last jobs end, is left out).
    const elapsed = (Date.now() - begin) / 1000;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const cpuPercent = {
      service: round((cpuMs(service.pid()) - cpuBefore) / elapsed / 10, 0),
      loadGenerator: round((benchCpu.user + benchCpu.system) / 1000 / elapsed / 10, 0),
    };
    await Promise.all(sent);
    await sleep(3000); // the last jobs end
    // The whole work, the tail included: a service that fell behind does part of it there.
    const serviceCpuSeconds = round((cpuMs(service.pid()) - cpuBefore) / 1000, 1);
    const rssAfter = rssMiB(service.pid());
    const perStream = delays.length / PARSED_STREAMS;
    return {
      streams,
      jobs: submitted,
      failedSubmits,
      firstFailure,
      // Every job's transitions reached each parsed stream when this is the asked rate.
      transitionsPerSecond: round(perStream / seconds, 0),
      eventsPerStream: {
        delivered: perStream,
        expected: (submitted - failedSubmits) * TRANSITIONS_PER_JOB,
      },
      delayMs: {
        p50: round(percentile(delays, 50), 0),
        p99: round(percentile(delays, 99), 0),
        max: round(percentile(delays, 100), 0), // not Math.max(...): 10⁵ arguments overflow the stack
      },
      discardedMiB: round(discardedBytes / 1024 ** 2, 1),
      cpuPercent,
      serviceCpuSeconds,
      rssMiB: { before: rssBefore, after: rssAfter },
    };
  } finally {
    for (const stream of open) stream.close();
    submits.close();
    await service.stop();
  }
}
