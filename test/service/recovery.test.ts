import { describe, expect, it } from 'vitest';
import { describeEngineCases } from '../support/engine-cases';
import { DOCKER } from './engines';

// The recovery cases of test/support/engine-cases.ts on the local Docker Engine (the swarm runs
// them too: test/swarm/recovery.test.ts); the simulated engine's workloads die with the service.
const docker = DOCKER.serviceForCases();
describeEngineCases(DOCKER, docker, ['recovery']);

describe('restart recovery', () => {
  it('keeps every job across a restart', async () => {
    const { service } = docker;
    const before = await service.request('GET', '/v1/client/jobs?limit=200');
    await service.restart();
    const after = await service.request('GET', '/v1/client/jobs?limit=200');
    const ids = (r: typeof before) =>
      (r.body.data as { items: { id: string }[] }).items.map((j) => j.id);
    expect(ids(after)).toEqual(ids(before));
  });
});
