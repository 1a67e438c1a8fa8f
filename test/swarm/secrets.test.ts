import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logsOf, submit, waitForState } from '../support/jobs';
import type { TestService } from '../support/service';
import { leftOnSwarm, startSwarmService } from './swarm';

let service: TestService;
beforeAll(async () => {
  service = await startSwarmService({}, { log_level: 'trace' });
});
afterAll(() => service?.stop());

const SECRET = 'swarm-hunter2-4e1c77d0-only-in-the-task';
// The job proves it received the value by its hash, so the command itself holds no secret.
const SECRET_SHA256 = createHash('sha256').update(SECRET).digest('hex');

describe('a sensitive env value on the swarm', () => {
  it('reaches the task and nothing else: no response, log line, database page, or service left behind', async () => {
    const seen: string[] = [];
    const submitted = await service.request('POST', '/v1/client/job', {
      job_definition: 't::sh:1',
      job_queue: 't::default',
      container_cmd_parameter: {
        script: `test "$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" = ${SECRET_SHA256} && echo "match: $TOKEN"`,
      },
      container_env: { TOKEN: { value: SECRET, sensitive: true } },
    });
    seen.push(submitted.text);
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
    for (const text of seen) expect(text).not.toContain(SECRET);
    expect(service.output()).not.toContain(SECRET);
    for (const file of readdirSync(service.dataDir).filter((f) => f.startsWith('jobdeck.sqlite'))) {
      expect(readFileSync(join(service.dataDir, file)).includes(SECRET), file).toBe(false);
    }
    // The service spec holds the env in clear while the job runs (the manager API shows it);
    // it is removed with the service once the outcome is recorded.
    expect(leftOnSwarm(id)).toBe('');
  });

  it('is kept when not sensitive, for contrast: the checks above can fail', async () => {
    const plain = 'swarm-plain-value-9c2e';
    const id = await submit(service, {
      job_definition: 't::sh:1',
      container_cmd_parameter: { script: 'echo "$PLAIN"' },
      container_env: { PLAIN: { value: plain } },
    });
    await waitForState(service, id, 'completed');
    expect(await logsOf(service, id)).toBe(`${plain}\n`);
    const files = readdirSync(service.dataDir).filter((f) => f.startsWith('jobdeck.sqlite'));
    expect(files.some((file) => readFileSync(join(service.dataDir, file)).includes(plain))).toBe(
      true,
    );
  });
});
