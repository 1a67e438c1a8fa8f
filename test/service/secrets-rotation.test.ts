import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { keyIdOf } from '../../server/secrets/secret-box';
import type { CreatedWebhook } from '../../contract';
import { logsOf, waitForState } from '../support/jobs';
import { CLI, startService, testProjects, type TestService } from '../support/service';
import { WebhookReceiver, verify } from '../support/webhook-receiver';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);

let service: TestService;
beforeAll(async () => {
  service = await startService({
    secret_key: oldKey.toString('base64'),
    webhooks: { allowed_hosts: ['127.0.0.1'] },
  });
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
    const receiver = await new WebhookReceiver().listen();
    const webhook = (
      await service.request('POST', '/v1/client/webhooks', {
        url: receiver.url,
        states: ['failed'],
      })
    ).body.data as CreatedWebhook;

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
      `1 values sealed again with key ${keyIdOf(newKey)} (1 were already), in 2 jobs, and 1 of 1 webhook secrets; no stored value needs a retired key now`,
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
    // The webhook still signs with the secret it was created with.
    await service.request('POST', `/v1/client/webhooks/${webhook.id}/test`);
    await receiver.until(() => receiver.received.length === 1, 'the test event');
    expect(() => verify(webhook.secret, receiver.received[0]!)).not.toThrow();
    await receiver.close();
  });
});

/** `jobdeck <args>` with this service's configuration: its exit code and stderr. */
function jobdeck(...args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...CLI, ...args, '--config', service.configFile],
      { cwd: resolve(import.meta.dirname, '..', '..'), timeout: 30_000 },
      (error, _stdout, stderr) => done({ code: (error?.code as number) ?? 0, stderr }),
    );
  });
}

/** Cancels every job still waiting, so that the next step's keys are judged on its own jobs. */
async function cancelWaiting() {
  const list = await service.request('GET', '/v1/client/jobs?state=runnable&limit=100');
  for (const job of (list.body.data as { items: { id: string }[] }).items) {
    expect((await service.request('POST', `/v1/client/job/${job.id}/cancel`)).status).toBe(202);
  }
}

describe('a sealed value whose key is gone', () => {
  it('stops the start in one line naming the key, and the job waits unharmed until it is back', async () => {
    await service.stop();
    reconfigure((config) => {
      config.projects = testProjects(); // t::paused holds its jobs again
    });
    await service.restart();
    const held = await submitHeld('needs-the-current-key');
    const keyNow = (parse(readFileSync(service.configFile, 'utf8')) as { secret_key: string })
      .secret_key;
    const lostKey = Buffer.from(keyNow, 'base64');
    await service.stop();
    // The key is replaced and the old one not kept as retired: what a careless rotation does.
    reconfigure((config) => {
      config.secret_key = randomBytes(32).toString('base64');
      delete config.retired_secret_keys;
    });
    const refused = await jobdeck('start', '--no-console');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `jobdeck: secret key: unfinished jobs hold values sealed with ${keyIdOf(lostKey)} (1 job), not configured: put it back (secret_key, retired_secret_keys, or data_dir/secret.key and secret.key.retired) and start again\n`,
    );
    reconfigure((config) => {
      config.retired_secret_keys = [keyNow];
    });
    await service.restart();
    const job = (await service.request('GET', `/v1/client/job/${held}`)).body.data as {
      state: string;
    };
    expect(job.state).toBe('runnable');
  });

  it('refuses a restore without its key file instead of making a new key', async () => {
    await cancelWaiting();
    await service.stop();
    reconfigure((config) => {
      delete config.secret_key;
      delete config.retired_secret_keys;
    });
    await service.restart(); // key files now: data_dir/secret.key is generated
    await submitHeld('sealed-with-the-key-file');
    await service.stop();
    const keyFile = join(service.dataDir, 'secret.key');
    renameSync(keyFile, `${keyFile}.elsewhere`); // restored without it
    const refused = await jobdeck('start', '--no-console');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^jobdeck: secret key: unfinished jobs hold values sealed with /,
    );
    expect(existsSync(keyFile)).toBe(false); // no fresh key that opens nothing
    renameSync(`${keyFile}.elsewhere`, keyFile);
    await service.restart();
  });

  it('makes secrets rotate name the missing key (was: unexpected error)', async () => {
    const finishedKey = randomBytes(32);
    await cancelWaiting();
    await service.stop();
    reconfigure((config) => {
      config.secret_key = finishedKey.toString('base64');
      const projects = testProjects();
      projects.t.queues.paused = { max_running: 4, priority: 0 } as never; // it runs: jobs finish
      config.projects = projects;
    });
    await service.restart();
    const done = await submitHeld('sealed-then-finished');
    await waitForState(service, done, ['completed'], 60_000);
    await service.stop();
    reconfigure((config) => {
      config.secret_key = randomBytes(32).toString('base64');
    });
    await service.restart(); // only finished jobs hold the old key: the start goes on
    const rotate = await jobdeck('secrets', 'rotate');
    expect(rotate.code).toBe(1);
    // Jobs of the steps before hold keys gone too: the first one met is named, in one line.
    expect(rotate.stderr).toMatch(
      /^jobdeck: secrets rotate: a stored value was sealed with key [0-9a-f]{12}, which is not configured: put it back in retired_secret_keys \(or data_dir\/secret\.key\.retired\) and run rotate again; what was sealed again so far stays so\n$/,
    );
    expect(rotate.stderr).not.toContain('unexpected');
  });
});
