import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerRuntime } from '../../server/runtime/docker/docker-runtime';
import { engineLogDriver, jobLabels, workloadName } from '../../server/runtime/job-container';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../server/config/schema';
import { RUN_LABEL, TEST_IMAGE } from '../support/service';
import { ENGINES } from './engines';

const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const row = ENGINES.find((engine) => engine.name === 'local Docker Engine')!;
const storeId = randomUUID();
const runLabel = `engine-fencing-${process.pid}`;
const BOUND_MS = 1_500;
const runtime = new DockerRuntime({
  socketPath: '/var/run/docker.sock',
  init: true,
  storeId,
  labels: { [RUN_LABEL]: runLabel },
  logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
  startedByMakerWithinMs: BOUND_MS,
});

/**
 * What an instance taken for lost leaves when it was between its create and its start: the
 * job's container, made (by its name and labels, as a launch makes it) and never started.
 */
async function madeByAnotherLaunch(jobId: string, command: string[]) {
  const container = await docker.createContainer({
    name: workloadName(jobId),
    Image: TEST_IMAGE,
    Cmd: command,
    Labels: jobLabels({ [RUN_LABEL]: runLabel }, { jobId, attempt: 1 }, storeId),
    HostConfig: { NetworkMode: 'none' },
  });
  return container;
}

const exists = (id: string) =>
  docker
    .getContainer(id)
    .inspect()
    .then(() => true)
    .catch(() => false);

describe('a launch that finds the container another launch made (local Docker Engine)', () => {
  afterAll(() => row.cleanup());

  it('waits for its maker to start it, and takes that one: one container, started once', async () => {
    const spec = row.spec('runs');
    const made = await madeByAnotherLaunch(spec.jobId, ['sleep', '30']);
    // The maker, slow but alive, starts it a moment after the takeover's launch began.
    setTimeout(() => void made.start(), 400);
    const workload = await runtime.launch(spec);
    expect(workload.id).toBe(made.id);
    expect(workload.status).toBe('running');
    const info = await made.inspect();
    expect(info.RestartCount).toBe(0);
    await runtime.remove(workload);
  });

  it('replaces it once its maker stayed silent past the bound: the maker, waking, starts nothing', async () => {
    const spec = row.spec('prints-and-exits-3');
    const made = await madeByAnotherLaunch(spec.jobId, ['sh', '-c', 'echo stale-run']);
    const began = Date.now();
    const workload = await runtime.launch(spec);
    expect(Date.now() - began).toBeGreaterThanOrEqual(BOUND_MS - 200);
    expect(workload.id).not.toBe(made.id);
    expect(await exists(made.id)).toBe(false);
    // The frozen maker thaws and starts the container it made: it is gone, nothing runs.
    await expect(made.start()).rejects.toMatchObject({ statusCode: 404 });
    // And a launch of the maker's own, by id, after the takeover's container ran to its end,
    // never starts that one again.
    const ended = await docker.getContainer(workload.id).wait();
    expect(ended.StatusCode).toBe(3);
    expect((await runtime.launch(spec)).id).toBe(workload.id);
    expect((await docker.getContainer(workload.id).inspect()).State.Status).toBe('exited');
    await runtime.remove(workload);
  });
});
