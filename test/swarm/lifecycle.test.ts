import { createConnection, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port';
import { detail, logsOf, statesOf, submit, waitForState } from '../support/jobs';
import type { TestService } from '../support/service';
import { MANAGER_SOCKET, hostname } from '../support/swarm';
import { describeEngineCases, nodeOfJob } from '../support/engine-cases';
import { SWARM, leftOnSwarm, startSwarmService, swarmServiceForFile } from './swarm';

const swarm = swarmServiceForFile();
const submitted: string[] = [];

const run = async (payload: Record<string, unknown>) => {
  const id = await submit(swarm.service, payload);
  submitted.push(id);
  return id;
};

// The lifecycle and cancel cases every engine runs (test/support/engine-cases.ts), on this file's
// service; then what only a cluster does.
describeEngineCases(SWARM, swarm, ['lifecycle', 'cancel']);

describe('a job on the swarm', () => {
  it('says why a job bigger than every node waits, and cancels it before it starts', async () => {
    const id = await run({ job_definition: 't::huge:1' });
    await expect
      .poll(async () => (await detail(swarm.service, id)).system_note, { timeout: 10_000 })
      .toMatch(
        /^waiting: needs 512 GiB of memory; the largest host has [\d.]+ GiB \(3 hosts\): it starts once a host that big is ready$/,
      );
    expect((await detail(swarm.service, id)).state).toBe('runnable');
    await swarm.service.request('POST', `/v1/client/job/${id}/cancel`);
    const cancelled = await waitForState(swarm.service, id, 'cancelled');
    expect(cancelled.system_note).toBe('cancelled on request before it started');
    expect(leftOnSwarm(id)).toBe('');
  });

  it('says why a job the swarm cannot place waits, and cancels it before its container starts', async () => {
    const id = await run({ job_definition: 't::nowhere:1' });
    const deadline = Date.now() + 30_000;
    let job = await detail(swarm.service, id);
    while (!job.system_note?.includes('no node can take it') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      job = await detail(swarm.service, id);
    }
    expect(job.state).toBe('starting');
    expect(job.system_note).toBe(
      'waiting for the container engine: no node can take it: 3 nodes do not match the placement constraints node.labels.jobdeck-nowhere==true',
    );
    await swarm.service.request('POST', `/v1/client/job/${id}/cancel`);
    const cancelled = await waitForState(swarm.service, id, 'cancelled');
    expect(cancelled.system_note).toBe('cancelled on request before the container started');
    expect(leftOnSwarm(id)).toBe('');
  });

  it('runs with the capabilities and no-new-privileges of the local engine, and no network', async () => {
    const probe = await run({ job_definition: 't::probe:1' });
    await waitForState(swarm.service, probe, 'completed');
    const seen = await logsOf(swarm.service, probe);
    expect(seen).toContain('NoNewPrivs:\t1'); // from the nodes' daemon default (swarm-up.sh)
    expect(seen).toContain('CapEff:\t00000000000004fb'); // the eight capabilities kept
    expect(seen).toContain('pids.max 512'); // job_defaults.pids_limit
    // Its own internal network: a link route, no default route, nothing else reachable.
    expect(seen).toMatch(/^routes: [\d.]+\/24 dev eth0 [^;]*;$/m);
    expect(seen).toContain('manager unreachable');
  });

  it('runs as the definition user on a read-only root, with a writable /tmp', async () => {
    const id = await run({ job_definition: 't::locked:1' });
    await waitForState(swarm.service, id, 'completed');
    expect(await logsOf(swarm.service, id)).toBe('1000\ntmp-writable\n');
  });

  it('places jobs where their definition says', async () => {
    const ids = await Promise.all(
      Array.from({ length: 6 }, () => run({ job_definition: 't::pinned:1', job_queue: 't::wide' })),
    );
    for (const id of ids) await waitForState(swarm.service, id, 'completed');
    for (const id of ids) expect(await nodeOfJob(swarm.service, id)).toBe(hostname(3));
  });

  it('lands jobs on more than one node', async () => {
    const ids = await Promise.all(
      Array.from({ length: 6 }, () => run({ job_definition: 't::echo:1', job_queue: 't::wide' })),
    );
    for (const id of ids) await waitForState(swarm.service, id, 'completed');
    const nodes = new Set(await Promise.all(ids.map((id) => nodeOfJob(swarm.service, id))));
    expect(nodes.size).toBeGreaterThan(1);
  });

  it('started each job that ran exactly once, counted by the nodes themselves', async () => {
    const byJob = await swarm.starts.byJob();
    const ran: string[] = [];
    for (const id of submitted) {
      if ((await statesOf(swarm.service, id)).includes('running')) ran.push(id);
    }
    expect(ran.length).toBeGreaterThan(10);
    for (const id of ran) expect(byJob.get(id), id).toBe(1);
    // A job that never ran (those no node can take) never started either.
    expect(submitted.filter((id) => !ran.includes(id) && byJob.has(id))).toEqual([]);
  });
});

describe('a swarm manager over TCP', () => {
  let proxy: Server;
  let tcpService: TestService;
  beforeAll(async () => {
    // The manager listens on its socket only; a TCP relay to it stands in for host:2375.
    proxy = createServer((client) => {
      const upstream = createConnection(MANAGER_SOCKET);
      client.pipe(upstream).pipe(client);
      const close = () => (client.destroy(), upstream.destroy());
      client.on('error', close);
      upstream.on('error', close);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    tcpService = await startSwarmService({ host: `127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await tcpService?.stop();
    proxy?.close();
  });

  it('runs a job through host:port', async () => {
    const id = await submit(tcpService, { job_definition: 't::echo:1' });
    await waitForState(tcpService, id, 'completed');
    expect(await logsOf(tcpService, id)).toBe('hello\n');
  });
});

describe('isolation: node-bridge', () => {
  let bridged: TestService;
  beforeAll(async () => {
    bridged = await startSwarmService({ isolation: 'node-bridge' });
  });
  afterAll(() => bridged?.stop());

  it("gives the job its node's default bridge: loopback only on nodes run with --bridge=none", async () => {
    const id = await submit(bridged, { job_definition: 't::probe:1' });
    await waitForState(bridged, id, 'completed');
    const seen = await logsOf(bridged, id);
    expect(seen).toMatch(/^routes: $/m);
    expect(seen).toContain('manager unreachable');
    expect(leftOnSwarm(id)).toBe('');
  });
});
