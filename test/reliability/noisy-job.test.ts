import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { jobLogsSchema } from '../../contract';
import { submit, waitForState } from '../support/jobs';
import { budget, recordFigure } from './figures';

const OUTPUT_MB = budget({ ci: 100, full: 400 });

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

const rssMiB = (pid: number) =>
  Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  ) / 1024;

describe('a job that prints a flood of output', () => {
  it('costs the service what it keeps (10 MiB), not the whole output, and never stalls it', async () => {
    const before = rssMiB(service.pid());
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: {
        script: `yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c ${OUTPUT_MB * 1024 * 1024}; echo; echo the-end`,
      },
    });
    let peak = before;
    let slowestHealthMs = 0;
    for (;;) {
      const started = Date.now();
      const health = await service.request('GET', '/v1/health', undefined, null);
      slowestHealthMs = Math.max(slowestHealthMs, Date.now() - started);
      expect(health.status).toBe(200);
      peak = Math.max(peak, rssMiB(service.pid()));
      const job = (await service.request('GET', `/v1/client/job/${id}`)).body.data as {
        state: string;
      };
      if (job.state === 'completed' || job.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitForState(service, id, 'completed');
    const kept = await service.request('GET', `/v1/client/job/${id}/logs`);
    const logs = jobLogsSchema.parse(kept.body.data);
    expect(logs.truncated).toBe(true);
    expect(logs.text.endsWith('\nthe-end\n')).toBe(true);
    expect(logs.kept_bytes).toBe(Buffer.byteLength(logs.text));
    expect(logs.kept_bytes).toBeLessThanOrEqual(10 * 1024 ** 2);
    expect(logs.kept_lines).toBe(logs.lines.length);
    // MiB: the kept 10 MiB as lines, their JSON and compression, and the garbage of reading the
    // engine's whole output through, which V8 collects late: 280–440 MiB on this VM whether 100
    // or 400 MB were printed (it was 300–320 in earlier runs; 400 and 444 since, on the code of
    // before this bound was raised too). Holding the output itself, as lines, costs several
    // times its size on top: past this at 100 MB, far past it at 400.
    expect(peak - before).toBeLessThan(480);
    recordFigure(
      `a job printing ${OUTPUT_MB} MB`,
      `service RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB; slowest health ${slowestHealthMs} ms; kept the last ${logs.kept_lines} of ${logs.total_lines} lines the engine held (${logs.kept_bytes} bytes)`,
    );
  });
});
