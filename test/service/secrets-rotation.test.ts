import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { keyIdOf } from '../../server/secrets/secret-box';
import { logsOf, waitForState } from '../support/jobs';
import { startService, testProjects, type TestService } from '../support/service';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);

let service: TestService;
beforeAll(async () => {
  service = await startService({ secret_key: oldKey.toString('base64') });
});
afterAll(() => service.stop());

function reconfigure(change: (config: Record<string, unknown>) => void) {
  const config = parse(readFileSync(service.configFile, 'utf8')) as Record<string, unknown>;
  change(config);
  writeFileSync(service.configFile, stringify(config));
}

/** A job in the paused queue that, once it runs, proves it received `secret` by its hash. */
async function submitHeld(secret: string): Promise<string> {
  const digest = createHash('sha256').update(secret).digest('hex');
  const response = await service.request('POST', '/v1/client/job', {
    job_definition: 't::sh:1',
    job_queue: 't::paused',
    container_cmd_parameter: {
      script: `test "$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)" = ${digest} && echo received`,
    },
    container_env: { TOKEN: { value: secret, sensitive: true } },
  });
  expect(response.status).toBe(202);
  return (response.body.data as { id: string }).id;
}

describe('secret key rotation', () => {
  it('a new key seals, the old still opens, rotate re-seals, and the old key can go', async () => {
    const before = await submitHeld('sealed-with-the-old-key');

    // Step 1: the new key becomes current, the old one is retired (it only opens now).
    await service.stop();
    reconfigure((config) => {
      config.secret_key = newKey.toString('base64');
      config.retired_secret_keys = [oldKey.toString('base64')];
    });
    await service.restart();
    const after = await submitHeld('sealed-with-the-new-key');

    // Step 2: every stored value is sealed again with the current key.
    const report = await service.cli('secrets', 'rotate');
    expect(report).toBe(
      `1 values sealed again with key ${keyIdOf(newKey)} (1 were already), in 2 jobs; no stored value needs a retired key now`,
    );
    // Run again: every value is sealed with the current key already (on any store).
    expect(await service.cli('secrets', 'rotate')).toMatch(
      /^0 values sealed again .* \(2 were already\)/,
    );

    // Step 3: the old key is gone from the configuration; both jobs run and get their values.
    await service.stop();
    reconfigure((config) => {
      delete config.retired_secret_keys;
      const projects = testProjects();
      projects.t.queues.paused = { max_running: 4, priority: 0 } as never;
      config.projects = projects;
    });
    await service.restart();
    for (const id of [before, after]) {
      const job = await waitForState(service, id, ['completed', 'failed', 'error'], 60_000);
      expect(job.state, job.system_note ?? '').toBe('completed');
      expect(await logsOf(service, id)).toBe('received\n');
    }
  });
});
