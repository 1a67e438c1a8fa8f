import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { expectPlainValueKept, expectSecretOnlyInJob } from '../support/secret-probe';

let service: TestService;
beforeAll(async () => {
  service = await startService({ log_level: 'trace' });
});
afterAll(() => service.stop());

describe('a sensitive env value', () => {
  it('reaches the container and nothing else: no response, log line or plaintext in the database', async () => {
    await expectSecretOnlyInJob(service, 'hunter2-7f3a9c1e-only-in-the-container');
  });

  it('is kept when not sensitive, for contrast: the check above can fail', async () => {
    await expectPlainValueKept(service, 'plain-value-4b1d');
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
