import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { logsOf, submit, waitForState } from './jobs';
import type { TestService } from './service';

/**
 * Runs a job with `secret` as a sensitive env value and checks that it reached the job and
 * nothing else: no response of any endpoint, no line of the service's output, no byte of the
 * store at rest. The job proves it got the value by its hash (so the command holds no secret)
 * and tries to print it. Returns the job's id.
 */
export async function expectSecretOnlyInJob(service: TestService, secret: string): Promise<string> {
  const sha256 = createHash('sha256').update(secret).digest('hex');
  const seen: string[] = [];
  const submitted = await service.request('POST', '/v1/client/job', {
    job_definition: 't::sh:1',
    job_queue: 't::default',
    container_cmd_parameter: {
      script: `test "$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" = ${sha256} && echo "match: $TOKEN"`,
    },
    container_env: { TOKEN: { value: secret, sensitive: true } },
  });
  seen.push(submitted.text);
  expect(submitted.status).toBe(202);
  const id = (submitted.body.data as { id: string }).id;
  expect((await waitForState(service, id, ['completed', 'failed'])).state).toBe('completed');
  expect(await logsOf(service, id)).toBe('match: [TOKEN redacted]\n');
  for (const path of [
    `/v1/client/job/${id}`,
    `/v1/client/job/${id}/logs`,
    `/v1/client/job/${id}/transitions`,
    '/v1/client/jobs',
  ]) {
    seen.push((await service.request('GET', path)).text);
  }
  // A refused submission must not echo it back either.
  const refused = await service.request('POST', '/v1/client/job', {
    job_definition: 't::sh:1',
    job_queue: 't::default',
    container_env: { TOKEN: { value: secret, sensitive: 'yes' } },
  });
  seen.push(refused.text);
  for (const text of seen) expect(text).not.toContain(secret);
  expect(service.output()).not.toContain(secret);
  const files = await service.storeFiles();
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(readFileSync(file).includes(secret), file).toBe(false);
  return id;
}

/** The contrast: a value that is not sensitive reaches the job and is stored as it is. */
export async function expectPlainValueKept(service: TestService, plain: string): Promise<void> {
  const id = await submit(service, {
    job_definition: 't::sh:1',
    container_cmd_parameter: { script: 'echo "$PLAIN"' },
    container_env: { PLAIN: { value: plain } },
  });
  await waitForState(service, id, 'completed');
  expect(await logsOf(service, id)).toBe(`${plain}\n`);
  const files = await service.storeFiles();
  expect(files.some((file) => readFileSync(file).includes(plain))).toBe(true);
}
