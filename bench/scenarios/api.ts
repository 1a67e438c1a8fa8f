import autocannon from 'autocannon';
import type { TestService } from '../../test/support/service';
import { rssMiB } from '../jobdeck-client';
import { submit } from '../../test/support/jobs';
import { round } from '../stats';

export interface ApiFigure {
  operation: 'submit' | 'detail';
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function load(
  service: TestService,
  options: {
    path: string;
    method: 'GET' | 'POST';
    body?: string;
    connections: number;
    seconds: number;
  },
) {
  const result = await autocannon({
    url: `${service.baseUrl}${options.path}`,
    method: options.method,
    body: options.body,
    connections: options.connections,
    duration: options.seconds,
    headers: { authorization: `Bearer ${service.key}`, 'content-type': 'application/json' },
  });
  return {
    requestsPerSecond: round(result.requests.average, 0),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Job Submit and Job Detail under load, into a paused queue: only the service is measured. */
export async function apiThroughput(service: TestService, seconds: number) {
  const figures: ApiFigure[] = [];
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMiB(service.pid()));
  }, 200);
  const body = JSON.stringify({ job_definition: 'b::true:1', job_queue: 'b::paused' });
  const detailId = await submit(service, JSON.parse(body) as Record<string, unknown>);
  for (const connections of [1, 16, 64]) {
    figures.push({
      operation: 'submit',
      connections,
      ...(await load(service, {
        path: '/v1/client/job',
        method: 'POST',
        body,
        connections,
        seconds,
      })),
    });
    figures.push({
      operation: 'detail',
      connections,
      ...(await load(service, {
        path: `/v1/client/job/${detailId}`,
        method: 'GET',
        connections,
        seconds,
      })),
    });
  }
  clearInterval(sampler);
  return { figures, peakRssMiB: peakRss };
}
