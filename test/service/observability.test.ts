import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineLink } from '../support/engine-link';
import { startService, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';

async function scrape(service: TestService): Promise<string> {
  const response = await fetch(`${service.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one sample, by its name and exact label set as Prometheus prints it. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics, liveness and readiness', () => {
  const link = new EngineLink();
  let service: TestService;
  const canary = `canary-${Date.now()}-do-not-leak`;

  beforeAll(async () => {
    await link.open();
    service = await startService({
      engine: { type: 'docker', socket: link.path },
      reconcile_interval_seconds: 1,
      instance_timeout_seconds: 3,
      log_level: 'debug',
      metrics: { on_api_port: true },
    });
  });
  afterAll(async () => {
    await service.stop();
    await link.cut();
  });

  it('counts transitions, times each stage and serves Node process metrics', async () => {
    const id = await submit(service, {
      job_definition: 't::echo:1',
      job_queue: 't::default',
      container_env: { TOKEN: { value: canary, sensitive: true } },
    });
    await waitForState(service, id, 'completed');
    await submit(service, { job_definition: 't::echo:1', job_queue: 't::paused' });
    const text = await scrape(service);

    const q = 'queue="t::default"';
    for (const [from, to] of [
      ['submitted', 'runnable'],
      ['runnable', 'starting'],
      ['starting', 'running'],
      ['running', 'completed'],
    ]) {
      expect(sample(text, `jobdeck_job_transitions_total{${q},from="${from}",to="${to}"}`)).toBe(1);
    }
    expect(sample(text, `jobdeck_job_submit_to_running_seconds_count{${q}}`)).toBe(1);
    expect(sample(text, `jobdeck_job_queue_wait_seconds_count{${q}}`)).toBe(1);
    expect(sample(text, `jobdeck_job_running_to_final_seconds_count{${q},state="completed"}`)).toBe(
      1,
    );
    expect(sample(text, 'jobdeck_jobs{state="runnable",queue="t::paused"}')).toBe(1);
    // An idle queue reports its zeros (a series that vanished read as "no data" on the dashboard).
    expect(sample(text, 'jobdeck_jobs{state="running",queue="t::single"}')).toBe(0);
    expect(sample(text, 'jobdeck_jobs{state="runnable",queue="t::default"}')).toBe(0);
    expect(sample(text, 'jobdeck_engine_up')).toBe(1);
    expect(
      sample(
        text,
        'jobdeck_http_request_duration_seconds_count{method="POST",route="/v1/client/job",status_code="202"}',
      ),
    ).toBe(2);
    expect(text).toMatch(/route="\/v1\/client\/job\/:job_id",status_code="200"/);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('labels carry templates and declared names only: no id, key, URL or secret', async () => {
    await service.request('GET', '/v1/client/job/00000000-0000-4000-8000-000000000000');
    await service.request('GET', '/v1/no/such/path-chosen-by-a-client');
    const text = await scrape(service);
    expect(text).toContain('route="unmatched",status_code="404"');
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000');
    expect(text).not.toContain('path-chosen-by-a-client');
    expect(text).not.toContain(canary);
    expect(text).not.toContain(service.key);
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]!);
    for (const value of labelValues) expect(value).toMatch(/^[\w:./+-]*$/);
  });

  it('healthz answers while alive; readyz and /v1/health name what is unreachable', async () => {
    expect(await service.request('GET', '/healthz', undefined, null)).toMatchObject({
      status: 200,
      body: { ok: true },
    });
    expect((await service.request('GET', '/readyz', undefined, null)).body).toEqual({
      ok: true,
      data: { store: 'reachable', engine: 'reachable', engine_type: 'docker', dispatcher: true },
    });

    await link.cut();
    const ready = await service.request('GET', '/readyz', undefined, null);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ ok: false, message: 'engine: unreachable' });
    expect((await service.request('GET', '/v1/health', undefined, null)).status).toBe(503);
    expect((await service.request('GET', '/healthz', undefined, null)).status).toBe(200);
    // The reconciler's next pass (1 s here) sees the engine gone.
    await new Promise((r) => setTimeout(r, 2500));
    const text = await scrape(service);
    expect(sample(text, 'jobdeck_engine_up')).toBe(0);
    expect(
      sample(text, 'jobdeck_engine_errors_total{operation="ping",kind="unavailable"}'),
    ).toBeGreaterThan(0);
    await link.open();
  });

  it('logs JSON lines with the request id, reusing a proxy’s X-Request-Id', async () => {
    const response = await fetch(`${service.baseUrl}/healthz`, {
      headers: { 'x-request-id': 'proxy-id-42' },
    });
    expect(response.headers.get('x-request-id')).toBe('proxy-id-42');
    const odd = await fetch(`${service.baseUrl}/healthz`, {
      headers: { 'x-request-id': 'has spaces and "quotes"' },
    });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    await new Promise((r) => setTimeout(r, 200));
    const lines = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.reqId === 'proxy-id-42')).toBe(true);
    expect(service.output()).not.toContain(canary);
  });
});

describe('where /metrics is served', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({ metrics: { port: 0 } });
  });
  afterAll(() => service.stop());

  it('not on the API port unless asked; on its own loopback listener when given a port', async () => {
    const onApi = await fetch(`${service.baseUrl}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.json()).toEqual({ ok: false, message: 'no endpoint GET /metrics' });

    const metricsUrl = /Metrics: +(http:\/\/127\.0\.0\.1:\d+\/metrics)$/m.exec(
      service.output(),
    )?.[1];
    expect(metricsUrl, service.output()).toBeDefined();
    const scraped = await fetch(metricsUrl!);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toMatch(/^jobdeck_engine_up 1$/m);
    // Nothing else there: the API's paths are on the API's port only.
    const elsewhere = await fetch(new URL('/v1/client/whoami', metricsUrl));
    expect(elsewhere.status).toBe(404);
    expect(((await elsewhere.json()) as { ok: boolean }).ok).toBe(false);
  });
});
