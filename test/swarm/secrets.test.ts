import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectPlainValueKept, expectSecretOnlyInJob } from '../support/secret-probe';
import type { TestService } from '../support/service';
import { leftOnSwarm, startSwarmService } from './swarm';

let service: TestService;
beforeAll(async () => {
  service = await startSwarmService({}, { log_level: 'trace' });
});
afterAll(() => service?.stop());

describe('a sensitive env value on the swarm', () => {
  it('reaches the task and nothing else: no response, log line, store page, or service left behind', async () => {
    const id = await expectSecretOnlyInJob(service, 'swarm-hunter2-4e1c77d0-only-in-the-task');
    // The service spec holds the env in clear while the job runs (the manager API shows it);
    // it is removed with the service once the outcome is recorded.
    expect(leftOnSwarm(id)).toBe('');
  });

  it('is kept when not sensitive, for contrast: the checks above can fail', async () => {
    await expectPlainValueKept(service, 'swarm-plain-value-9c2e');
  });
});
