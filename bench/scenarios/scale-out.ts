import autocannon from 'autocannon';
import { createDatabase, shareCluster, startPostgres } from '../../test/support/postgres';
import { startService, type TestService } from '../../test/support/service';
import { submit, waitForState } from '../../test/support/jobs';
import { BENCH_SETTINGS, BENCH_WAIT_MS } from '../jobdeck-client';
import { pool, round } from '../stats';

const CONNECTIONS = 16;
/**
 * Each figure's load first runs unmeasured, this long per instance: a fresh process compiles its
 * hot paths in its first seconds of load, which a service running for days has long done. Each
 * of three instances sees a third of the requests, so it warms three times as long (measured:
 * three fresh instances did 0.55–0.64 of their submits of the third 5-s window in the first).
 */
const WARM_UP_SECONDS_PER_INSTANCE = 3;

interface Setup {
  name: string;
  instances: number;
  store: 'sqlite' | 'postgres';
}

const SETUPS: Setup[] = [
  { name: '1 instance, SQLite', instances: 1, store: 'sqlite' },
  { name: '1 instance, PostgreSQL', instances: 1, store: 'postgres' },
  { name: '3 instances, PostgreSQL', instances: 3, store: 'postgres' },
];

/** 16 connections in all, spread over the instances as a load balancer would. */
async function loadAcross(
  services: TestService[],
  request: { path: (service: TestService) => string; method: 'GET' | 'POST'; body?: string },
  seconds: number,
) {
  const results = await Promise.all(
    services.map((service, i) =>
      autocannon({
        url: `${service.baseUrl}${request.path(service)}`,
        method: request.method,
        body: request.body,
        connections:
          Math.floor(CONNECTIONS / services.length) + (i < CONNECTIONS % services.length ? 1 : 0),
        duration: seconds,
        headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
      }),
    ),
  );
  return {
    requestsPerSecond: round(
      results.reduce((sum, r) => sum + r.requests.average, 0),
      0,
    ),
    p99Ms: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}

/** The load, warmed up first, then measured. */
async function warmThenLoad(
  services: TestService[],
  request: Parameters<typeof loadAcross>[1],
  seconds: number,
) {
  await loadAcross(services, request, WARM_UP_SECONDS_PER_INSTANCE * services.length);
  return loadAcross(services, request, seconds);
}

async function measure(setup: Setup, seconds: number, shortJobs: number) {
  const store =
    setup.store === 'postgres' ? { store: { type: 'postgres', url: await createDatabase() } } : {};
  const services: TestService[] = [];
  try {
    for (let i = 0; i < setup.instances; i += 1) {
      services.push(await startService({ ...BENCH_SETTINGS, ...store }));
    }
    const body = JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' });
    const submitFigure = await warmThenLoad(
      services,
      { path: () => '/v1/client/job', method: 'POST', body },
      seconds,
    );
    const detailIds = new Map<TestService, string>();
    for (const service of services) {
      detailIds.set(service, await submit(service, JSON.parse(body) as Record<string, unknown>));
    }
    const detailFigure = await warmThenLoad(
      services,
      { path: (service) => `/v1/client/job/${detailIds.get(service)}`, method: 'GET' },
      seconds,
    );
    if (shortJobs === 0) {
      return {
        setup: setup.name,
        submit: submitFigure,
        detail: detailFigure,
        shortJobs,
        jobsPerMinute: 0,
      };
    }
    // Short jobs end to end, submitted round-robin, the queue's 16 slots shared by all instances.
    const begin = Date.now();
    const ids = await pool(
      Array.from({ length: shortJobs }, (_, i) => i),
      16,
      (i) =>
        submit(services[i % services.length]!, {
          job_definition: 'b::true:1',
          job_queue: 'b::fast',
        }),
    );
    for (const [i, id] of ids.entries()) {
      await waitForState(
        services[i % services.length]!,
        id,
        ['completed', 'failed', 'error'],
        BENCH_WAIT_MS,
        100,
      );
    }
    const jobsPerMinute = round((shortJobs / ((Date.now() - begin) / 1000)) * 60, 0);
    return {
      setup: setup.name,
      submit: submitFigure,
      detail: detailFigure,
      shortJobs,
      jobsPerMinute,
    };
  } finally {
    for (const service of services) await service.stop();
  }
}

/**
 * Issue 8's side by side: the API and 500 short jobs on the embedded store, on PostgreSQL, and
 * on three instances sharing PostgreSQL (one throw-away cluster, started here). The cluster keeps
 * PostgreSQL's durable defaults (fsync, synchronous_commit on): a submit is answered after its
 * commit is flushed to disk, which is what issue 27's bar is about.
 */
export async function scaleOut(seconds: number, shortJobs: number) {
  const cluster = await startPostgres({ durable: true });
  shareCluster(cluster);
  try {
    const figures = [];
    for (const setup of SETUPS) figures.push(await measure(setup, seconds, shortJobs));
    return figures;
  } finally {
    cluster.stop();
  }
}
