import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { logsOf, submit, waitForState } from '../support/jobs';

let service: TestService;
beforeAll(async () => {
  service = await startService({ log_level: 'trace' });
});
afterAll(() => service.stop());

import { createHash } from 'node:crypto';

const SECRET = 'hunter2-7f3a9c1e-only-in-the-container';
// The job proves it received the value by its hash, so the command itself holds no secret.
const SECRET_SHA256 = createHash('sha256').update(SECRET).digest('hex');

describe('a sensitive env value', () => {
  it('reaches the container and nothing else: no response, log line or plaintext in the database', async () => {
    const seen: string[] = [];
    const submitted = await service.request('POST', '/v1/client/job', {
      job_definition: 't::sh:1',
      job_queue: 't::default',
      // The job proves it got the value, and also tries to print it.
      container_cmd_parameter: {
        script: `test "$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" = ${SECRET_SHA256} && echo "match: $TOKEN"`,
      },
      container_env: { TOKEN: { value: SECRET, sensitive: true } },
    });
    seen.push(submitted.text);
    expect(submitted.status).toBe(202);
    const id = (submitted.body.data as { id: string }).id;
    const job = await waitForState(service, id, ['completed', 'failed']);
    expect(job.state).toBe('completed');

    const logs = await logsOf(service, id);
    expect(logs).toBe('match: [TOKEN redacted]\n');
    for (const path of [
      `/v1/client/job/${id}`,
      `/v1/client/job/${id}/logs`,
      `/v1/client/job/${id}/transitions`,
      '/v1/client/jobs',
    ]) {
      seen.push((await service.request('GET', path)).text);
    }
    // A refused submission must not echo it back either.
    seen.push(
      (
        await service.request('POST', '/v1/client/job', {
          job_definition: 't::sh:1',
          job_queue: 't::default',
          container_env: { TOKEN: { value: SECRET, sensitive: 'yes' } },
        })
      ).text,
    );
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect(service.output()).not.toContain(SECRET);

    const files = await service.storeFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file).includes(SECRET), file).toBe(false);
  });

  it('is kept when not sensitive, for contrast: the check above can fail', async () => {
    const plain = 'plain-value-4b1d';
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'echo "$PLAIN"' },
      container_env: { PLAIN: { value: plain } },
    });
    await waitForState(service, id, 'completed');
    expect(await logsOf(service, id)).toBe(`${plain}\n`);
    const files = await service.storeFiles();
    expect(files.some((file) => readFileSync(file).includes(plain))).toBe(true);
  });

  it('prints the console key only on the start that created it', async () => {
    await service.restart();
    const output = service.output();
    expect(output.split(service.key).length - 1).toBe(1);
    expect(output).toContain(`in ${join(service.dataDir, 'console.key')} (mode 0600)`);
  });

  it('keeps the secret key file private (0600)', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(join(service.dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(service.dataDir, 'console.key')).mode & 0o777).toBe(0o600);
  });
});
