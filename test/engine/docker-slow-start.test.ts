import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { EngineUnavailableError } from '../../server/jobs/ports';
import { DockerRuntime } from '../../server/runtime/docker/docker-runtime';
import { JOB_LABEL, engineLogDriver } from '../../server/runtime/job-container';
import { DEFAULT_KEPT_OUTPUT_BYTES } from '../../server/config/schema';
import { EngineLink } from '../support/engine-link';
import { RUN_LABEL } from '../support/service';
import { ENGINES } from './engines';

const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const row = ENGINES.find((engine) => engine.name === 'local Docker Engine')!;
const runLabel = `engine-slow-start-${process.pid}`;
// Past the quick calls' timeout (15 s): the service stops waiting for the answer.
const START_ANSWERED_AFTER_MS = 17_000;
const START_REQUEST = /^POST \S*\/containers\/\S+\/start /;

let link: EngineLink;
const runtimeThroughLink = () =>
  new DockerRuntime({
    socketPath: link.path,
    init: true,
    storeId: randomUUID(),
    labels: { [RUN_LABEL]: runLabel },
    logDriver: engineLogDriver(DEFAULT_KEPT_OUTPUT_BYTES),
  });

const containersOf = async (jobId: string) =>
  docker.listContainers({ all: true, filters: { label: [`${JOB_LABEL}=${jobId}`] } });

describe('a launch on an engine slow to answer its start (local Docker Engine)', () => {
  afterEach(() => link.cut());
  afterAll(async () => {
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`${RUN_LABEL}=${runLabel}`] },
    });
    await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  });

  it('takes the container it started when the answer comes too late: running, one container, started once', async () => {
    link = new EngineLink();
    await link.open();
    link.holdAnswers(START_REQUEST, START_ANSWERED_AFTER_MS);
    const runtime = runtimeThroughLink();
    const spec = row.spec('runs');
    const workload = await runtime.launch(spec);
    expect(workload.status).toBe('running');
    const containers = await containersOf(spec.jobId);
    expect(containers.map((c) => c.Id)).toEqual([workload.id]);
    expect((await docker.getContainer(workload.id).inspect()).RestartCount).toBe(0);
  }, 60_000);

  it('is the engine away when nothing answers once the start went unanswered', async () => {
    link = new EngineLink();
    await link.open();
    link.holdAnswers(START_REQUEST, START_ANSWERED_AFTER_MS);
    const runtime = runtimeThroughLink();
    const spec = row.spec('runs');
    const launched = runtime.launch(spec);
    // Cut once the start is with the engine: its answer never comes, nor any other.
    setTimeout(() => void link.cut(), 3_000);
    await expect(launched).rejects.toBeInstanceOf(EngineUnavailableError);
  }, 60_000);
});
