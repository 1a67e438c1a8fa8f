import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { startService, type TestService } from '../support/service';
import { submit, waitForState } from '../support/jobs';

/** Debian's prometheus package (scripts/host-setup.sh --for-tests installs it). */
const PROMETHEUS = 'prometheus';

interface QueryResult {
  status: string;
  data: { result: { metric: Record<string, string>; value: [number, string] }[] };
}

/** Polls an instant query until it returns a sample with a value ≥ `atLeast`. */
async function queryUntil(api: string, query: string, atLeast: number): Promise<QueryResult> {
  const deadline = Date.now() + 60_000;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as QueryResult;
      last = body;
      if (body.data.result.some((r) => Number(r.value[1]) >= atLeast)) return body;
    } catch (error) {
      last = error; // Prometheus is still starting
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `Prometheus never answered ${query} with ≥ ${atLeast}; last: ${JSON.stringify(last)}`,
  );
}

describe('Prometheus scrapes the service', () => {
  let service: TestService;
  let prometheus: ChildProcess;
  let api: string;

  beforeAll(async () => {
    if (spawnSync(PROMETHEUS, ['--version']).error) {
      throw new Error('prometheus is not installed: run scripts/host-setup.sh --for-tests');
    }
    // The listener of its own that docs/deploy.md recommends, on loopback.
    service = await startService({ metrics: { port: 0 } });
    const metricsUrl = new URL(/Metrics: +(\S+)/.exec(service.output())![1]!);
    const dir = mkdtempSync(join(tmpdir(), 'jobdeck-prometheus-'));
    const config = join(dir, 'prometheus.yml');
    writeFileSync(
      config,
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        '  - job_name: jobdeck',
        `    static_configs: [{ targets: ['${metricsUrl.host}'] }]`,
      ].join('\n'),
    );
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    await service?.stop();
  });

  it('finds the target up and a job’s transitions through its query API', async () => {
    const id = await submit(service, { job_definition: 't::echo:1' });
    await waitForState(service, id, 'completed');
    await queryUntil(api, 'up{job="jobdeck"}', 1);
    const completed = await queryUntil(
      api,
      'sum by (queue) (jobdeck_job_transitions_total{to="completed"})',
      1,
    );
    expect(completed.data.result[0]!.metric).toEqual({ queue: 't::default' });
    await queryUntil(api, 'jobdeck_build_info', 1);
  });

  it('evaluates every query of the Grafana dashboard in docs/', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'grafana-dashboard.json'), 'utf8'),
    ) as { panels: { title: string; targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    for (const expr of exprs) {
      // Grafana's variables, as "All" and a one-minute rate window would set them.
      const query = expr.replaceAll('$__rate_interval', '1m').replace(/\$(queue|job)\b/g, '.*');
      const response = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as { status: string; error?: string };
      expect({ expr, status: body.status, error: body.error }).toEqual({
        expr,
        status: 'success',
        error: undefined,
      });
    }
  });
});
