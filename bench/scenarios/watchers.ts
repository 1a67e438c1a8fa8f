import { request, type IncomingMessage } from 'node:http';
import { submit } from '../../test/support/jobs';
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
/** Each job makes four transitions: runnable (on admission), starting, running, completed. */
const TRANSITIONS_PER_JOB = 4;

interface Stream {
  response: IncomingMessage;
  close(): void;
}

function openStream(service: TestService, onData: (chunk: Buffer) => void): Promise<Stream> {
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

/** Delays of the job events in an SSE byte stream, from each job's updated_at to now. */
function delayMeter(delays: number[]) {
  let pending = '';
  return (chunk: Buffer) => {
    const now = Date.now();
    pending += chunk.toString();
    const events = pending.split('\n\n');
    pending = events.pop()!;
    for (const event of events) {
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (!event.includes('event: job') || !data) continue;
      const { updated_at } = JSON.parse(data) as { updated_at: string };
      delays.push(now - Date.parse(updated_at));
    }
  };
}

export async function watchers(streams: number, transitionsPerSecond: number, seconds: number) {
  const service = await startService({
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
  });
  const open: Stream[] = [];
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
    const submits: Promise<unknown>[] = [];
    while (Date.now() - begin < seconds * 1000) {
      const due = Math.floor(((Date.now() - begin) / 1000) * jobsPerSecond);
      for (; submitted < due; submitted += 1) {
        submits.push(
          submit(service, { job_definition: 'b::true:1', job_queue: 'b::wide' }).catch(() => {
            failedSubmits += 1;
          }),
        );
      }
      await sleep(20);
    }
    await Promise.all(submits);
    await sleep(3000); // the last jobs end
    const elapsed = (Date.now() - begin) / 1000;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    // Of one core, over the window: whether the service or its load generator took the machine.
    const cpuPercent = {
      service: round((cpuMs(service.pid()) - cpuBefore) / elapsed / 10, 0),
      loadGenerator: round((benchCpu.user + benchCpu.system) / 1000 / elapsed / 10, 0),
    };
    const rssAfter = rssMiB(service.pid());
    const perStream = delays.length / PARSED_STREAMS;
    return {
      streams,
      jobs: submitted,
      failedSubmits,
      transitionsPerSecond: round(perStream / elapsed, 0),
      delayMs: {
        p50: round(percentile(delays, 50), 0),
        p99: round(percentile(delays, 99), 0),
        max: round(percentile(delays, 100), 0), // not Math.max(...): 10⁵ arguments overflow the stack
      },
      discardedMiB: round(discardedBytes / 1024 ** 2, 1),
      cpuPercent,
      rssMiB: { before: rssBefore, after: rssAfter },
    };
  } finally {
    for (const stream of open) stream.close();
    await service.stop();
  }
}
