import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobLogsSchema, type JobLogs } from '../../contract';
import { packOutput } from '../../server/store/sql/jobs/output-codec';
import { submit, waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';
import { storedOutput } from '../support/stored-output';

const LINES = 15_000;
const TOKEN = randomBytes(16).toString('hex');

/** 15,000 numbered lines of about 100 bytes (1.5 MB), every 1,000th printing the secret. */
const CHATTY = `awk 'BEGIN { for (i = 1; i <= ${LINES}; i++) printf "line %05d %s %s\\n", i, (i % 1000 ? "" : "token " ENVIRON["TOKEN"]), "lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor" }'`;

const expectedLine = (i: number) =>
  `line ${String(i).padStart(5, '0')} ${i % 1000 ? '' : 'token [TOKEN redacted]'} lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor`;

/** What the job printed: the lines as shown, with the secret itself. */
const printedBytes = Array.from({ length: LINES }, (_, i) =>
  Buffer.byteLength(`${expectedLine(i + 1).replace('[TOKEN redacted]', TOKEN)}\n`),
).reduce((sum, bytes) => sum + bytes, 0);

async function chattyJob(service: TestService): Promise<string> {
  const id = await submit(service, {
    job_definition: 't::sh:1',
    container_cmd_parameter: { script: CHATTY },
    container_env: { TOKEN: { value: TOKEN, sensitive: true } },
  });
  await waitForState(service, id, 'completed', 60_000);
  return id;
}

async function logsOf(service: TestService, id: string): Promise<{ logs: JobLogs; body: string }> {
  const response = await service.request('GET', `/v1/client/job/${id}/logs`);
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  return { logs: jobLogsSchema.parse(response.body.data), body: response.text };
}

describe('the whole output of an ended job', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service?.stop());

  it('keeps every one of 15,000 lines (1.5 MB), compressed, secrets replaced', async () => {
    const id = await chattyJob(service);
    const { logs, body } = await logsOf(service, id);

    expect(logs.truncated).toBe(false);
    expect(logs.next_since).toBeNull();
    expect(logs.lines.map((line) => line.text)).toEqual(
      Array.from({ length: LINES }, (_, i) => expectedLine(i + 1)),
    );
    expect(logs.kept_lines).toBeUndefined(); // nothing was cut: nothing to say
    expect(body).not.toContain(TOKEN);

    // What is in the store: the same lines, the secret not among them.
    const stored = (await storedOutput(service, id))!;
    expect(stored.lines).toHaveLength(LINES);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(stored.sizes?.printed).toEqual({ lines: LINES, bytes: printedBytes });
    const keptBytes = stored.sizes!.kept.bytes;
    const compressed = (await packOutput(stored.lines)).length;
    console.log(
      `job-output: printed ${LINES} lines, ${printedBytes} bytes; kept ${stored.lines.length} lines, ${keptBytes} bytes (secrets replaced); stored compressed ${compressed} bytes (${((100 * compressed) / keptBytes).toFixed(1)} %)`,
    );
    expect(compressed).toBeLessThan(keptBytes / 5);
  }, 90_000);

  it("has the engine keep enough for it: the container's log cap follows max_bytes_per_job", async () => {
    const id = await submit(service, { job_definition: 't::sleep:1' });
    await waitForState(service, id, 'running');
    const config = execFileSync('docker', [
      'inspect',
      '--format',
      '{{json .HostConfig.LogConfig}}',
      `jobdeck-${id}`,
    ]).toString();
    // 4 × the default 10 MiB, two files.
    expect(JSON.parse(config)).toEqual({
      Type: 'json-file',
      Config: { 'max-file': '2', 'max-size': '40m' },
    });
    await service.request('POST', `/v1/client/job/${id}/cancel`);
    await waitForState(service, id, 'cancelled');
  });
});

describe('max_bytes_per_job', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService({
      job_output: { max_bytes_per_job: 64 * 1024, max_bytes_per_project: 1024 ** 2 },
    });
  });
  afterAll(() => service?.stop());

  it('keeps the newest output within it, and the answer says how much of what', async () => {
    const id = await chattyJob(service);
    const { logs, body } = await logsOf(service, id);

    expect(logs.truncated).toBe(true);
    expect(logs.kept_lines).toBe(logs.lines.length);
    expect(logs.total_lines).toBe(LINES);
    expect(logs.total_bytes).toBe(printedBytes);
    expect(logs.kept_bytes).toBe(Buffer.byteLength(logs.text));
    expect(logs.kept_bytes).toBeLessThanOrEqual(64 * 1024);
    expect(logs.kept_bytes).toBeGreaterThan(64 * 1024 - 200);
    // The newest lines, in order, up to the last one printed (the oldest kept may lose its start).
    const whole = logs.lines.slice(1).map((line) => line.text);
    const first = LINES - whole.length + 1;
    expect(whole).toEqual(Array.from({ length: whole.length }, (_, i) => expectedLine(first + i)));
    expect(expectedLine(first - 1).endsWith(logs.lines[0]!.text)).toBe(true);
    expect(body).not.toContain(TOKEN);
    console.log(
      `job-output: max_bytes_per_job 65536 kept the last ${logs.kept_lines} of ${logs.total_lines} lines, ${logs.kept_bytes} of ${logs.total_bytes} bytes`,
    );
  }, 90_000);
});
