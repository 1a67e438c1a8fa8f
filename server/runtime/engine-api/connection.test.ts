import type { Agent } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { engineClients } from './connection';

describe('the Engine API clients', () => {
  it('hand docker-modem an agent without keep-alive that its debug formatting does not walk', () => {
    const { quick, long } = engineClients({ socketPath: '/run/jobdeck-test-no-such.sock' });
    for (const client of [quick, long]) {
      const { agent } = client.modem as unknown as { agent: Agent & { keepAlive: boolean } };
      expect(agent.keepAlive).toBe(false);
      // What docker-modem does with every request's options, agent included.
      expect(inspect({ agent }, { showHidden: true, depth: null })).toBe('{ agent: EngineAgent }');
    }
  });
});
