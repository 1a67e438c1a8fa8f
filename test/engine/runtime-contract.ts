import { afterAll, describe, expect, it } from 'vitest';
import {
  RuntimeError,
  type ContainerRuntime,
  type Workload,
  type WorkloadSpec,
} from '../../server/jobs/ports';
import type { Behaviour, EngineRow } from './engines';

/**
 * The ContainerRuntime port's promises, checked on every engine alike (River's shape, for
 * engines): what the domain relies on holds for the fake its fast tests use as for the real
 * engines. Rows: engines.ts (the fake, the simulated engine, the local Docker Engine) in runtime.contract.test.ts, and
 * the test swarm in test/swarm/runtime.contract.test.ts, where a swarm is up.
 */
export function describeRuntimeContract(row: EngineRow): void {
  describe(`ContainerRuntime on ${row.name}`, () => {
    const runtime = row.runtime();
    afterAll(() => row.cleanup());

    /** A workload doing `behaviour`: a new job's, or the one `spec` (made for it) says. */
    async function launched(
      behaviour: Behaviour,
      spec: WorkloadSpec = row.spec(behaviour),
    ): Promise<Workload> {
      const workload = await runtime.launch(spec);
      row.drive(runtime, spec.jobId, behaviour);
      return workload;
    }

    async function running(workload: Workload): Promise<Workload> {
      for (let i = 0; i < 200; i += 1) {
        const now = await runtime.inspect(workload.jobId);
        if (now?.status === 'running') return now;
        if (now) await Promise.race([runtime.waitForChange(now), sleep(100)]);
      }
      throw new Error(`job ${workload.jobId} never ran`);
    }

    async function ended(runtimeOf: ContainerRuntime, workload: Workload): Promise<Workload> {
      for (let i = 0; i < 200; i += 1) {
        const now = await runtimeOf.inspect(workload.jobId);
        if (now?.status === 'exited') return now;
        if (now) await Promise.race([runtimeOf.waitForChange(now), sleep(100)]);
      }
      throw new Error(`job ${workload.jobId} never ended`);
    }

    it('launches once per job id: a second launch returns the same workload', async () => {
      const spec = row.spec('runs');
      const first = await runtime.launch(spec);
      const second = await runtime.launch(spec);
      expect(second.id).toBe(first.id);
      const mine = (await runtime.list()).filter((w) => w.jobId === spec.jobId);
      expect(mine).toHaveLength(1);
      await runtime.stop(first, 1);
      await runtime.remove(first);
    });

    it('launches once per job id when two launch it at once (two instances, after a takeover): one workload, running, kept', async () => {
      // Several rounds: which call creates and which finds the name taken varies from one to the next.
      // A round is 1–5 s of the engine's time on a loaded 2-core machine: 6 rounds, 2 minutes.
      for (let round = 0; round < 6; round += 1) {
        const spec = row.spec('runs');
        const launches = await Promise.allSettled([runtime.launch(spec), runtime.launch(spec)]);
        expect(
          launches.map((launch) => (launch.status === 'rejected' ? String(launch.reason) : 'ok')),
        ).toEqual(['ok', 'ok']);
        const [first, second] = launches.map(
          (launch) => (launch as PromiseFulfilledResult<Workload>).value,
        );
        expect(second!.id).toBe(first!.id);
        const mine = (await runtime.list()).filter((w) => w.jobId === spec.jobId);
        expect(mine.map((w) => w.id)).toEqual([first!.id]);
        // Started (or, on a cluster, being placed), never failed nor removed by the other launch.
        expect(['running', 'pending']).toContain(mine[0]!.status);
        await runtime.remove(first!);
      }
    }, 120_000);

    it('tells which attempt of the job a workload runs, on launch, inspect and list', async () => {
      const spec = { ...row.spec('runs'), attempt: 3 };
      const workload = await runtime.launch(spec);
      expect(workload.attempt).toBe(3);
      expect((await runtime.inspect(spec.jobId))?.attempt).toBe(3);
      const listed = (await runtime.list()).find((w) => w.jobId === spec.jobId);
      expect(listed?.attempt).toBe(3);
      await runtime.stop(workload, 1);
      await runtime.remove(workload);
    });

    it('resolves waitForChange when the workload ends, with its exit code and times', async () => {
      const workload = await launched('prints-and-exits-3');
      const done = await ended(runtime, workload);
      expect(done.exitCode).toBe(3);
      // For a process this short Docker may record the two times in either order.
      expect(done.finishedAt).not.toBeNull();
      if (row.keepsStartOfEnded) expect(done.startedAt).not.toBeNull();
      await runtime.remove(done);
    });

    it('reads the output by stream, bounded, and only after the cursor', async () => {
      const done = await ended(runtime, await launched('prints-and-exits-3'));
      const all = await runtime.readOutput(done, { after: null, maxBytes: 1024 });
      // Each line with its stream. Across streams the engine's order is its file's: Docker copies
      // stdout and stderr apart, so two lines printed within microseconds may be stored in the
      // other order than their times; a cursor is a time, so `after` is checked from the earlier.
      expect(all.lines.map((l) => [l.stream, l.bytes.toString()]).sort()).toEqual([
        ['stderr', 'two\n'],
        ['stdout', 'one\n'],
      ]);
      expect(all.truncated).toBe(false);
      const [first, last] = all.lines.map((l) => l.bytes.toString());
      const [earlier, later] = [...all.lines].sort((a, b) => (a.at < b.at ? -1 : 1));
      const afterEarlier = await runtime.readOutput(done, { after: earlier!.at, maxBytes: 1024 });
      expect(afterEarlier.lines.map((l) => l.bytes.toString())).toEqual([later!.bytes.toString()]);
      const bounded = await runtime.readOutput(done, { after: null, maxBytes: 4 });
      expect(bounded.lines.map((l) => l.bytes.toString())).toEqual([last]);
      expect(bounded.truncated).toBe(true);
      expect(first).not.toBe(last);
      await runtime.remove(done);
    });

    it('stops a running workload with SIGTERM (143), and with SIGKILL after the grace when it is ignored (137)', async () => {
      for (const [behaviour, code] of [
        ['runs', 143],
        ['ignores-term', 137],
      ] as const) {
        // Running: a swarm's launch returns before its task has a container.
        const workload = await running(await launched(behaviour));
        await runtime.stop(workload, 1);
        const done = await ended(runtime, workload);
        expect(done.exitCode, behaviour).toBe(code);
        await runtime.stop(done, 1); // already ended: resolves, no error
        await runtime.remove(done);
      }
    });

    it.runIf(row.reportsOutOfMemory)(
      'says a workload was killed for memory past its limit (137, oom_killed)',
      async () => {
        const done = await ended(runtime, await launched('allocates-past-limit'));
        expect([done.exitCode, done.cause]).toEqual([137, 'oom_killed']);
        await runtime.remove(done);
      },
    );

    it('says whether it reports every out-of-memory kill, as its row does', () => {
      expect(runtime.reportsOutOfMemory === true).toBe(row.reportsOutOfMemory);
    });

    it.runIf(row.reportsUsage)(
      'reports what a running workload uses, within its limit, and nothing once it ended',
      async () => {
        const spec = row.spec('runs');
        const workload = await running(await launched('runs', spec));
        const used = await runtime.usage!(workload);
        expect(used!.memoryBytes).toBeGreaterThan(0);
        expect(used!.memoryBytes).toBeLessThanOrEqual(spec.memoryBytes);
        expect(used!.peakMemoryBytes ?? used!.memoryBytes).toBeGreaterThanOrEqual(
          used!.memoryBytes,
        );
        expect(used!.cpuNanos).toBeGreaterThanOrEqual(0);
        await runtime.stop(workload, 1);
        const done = await ended(runtime, workload);
        expect(await runtime.usage!(done)).toBeNull();
        await runtime.remove(done);
        expect(await runtime.usage!(done)).toBeNull(); // removed: nothing, no error
      },
    );

    it.runIf(!row.reportsUsage)('reports no usage rather than a made-up figure', () => {
      expect(runtime.usage).toBeUndefined();
    });

    it.runIf(row.loseNode)('says a workload ended with its node (node_lost), and why', async () => {
      const workload = await running(await launched('runs'));
      row.loseNode!(runtime, workload);
      const done = await ended(runtime, workload);
      // The exit code went with the node; the message is for the job's note.
      expect([done.exitCode, done.cause]).toEqual([null, 'node_lost']);
      expect(done.message).toBeTruthy();
      await runtime.remove(done);
    });

    it('gives no cause to a workload that ended by itself or was stopped', async () => {
      const exited = await ended(runtime, await launched('prints-and-exits-3'));
      const stopped = await running(await launched('runs'));
      await runtime.stop(stopped, 1);
      for (const done of [exited, await ended(runtime, stopped)]) {
        expect(done.cause).toBeUndefined();
        await runtime.remove(done);
      }
    });

    it('reads no output of a removed workload: the engine says it is gone (RuntimeError)', async () => {
      const done = await ended(runtime, await launched('prints-and-exits-3'));
      await runtime.remove(done);
      await expect(runtime.readOutput(done, { after: null, maxBytes: 1024 })).rejects.toThrow(
        RuntimeError,
      );
    });

    it("never shows one attempt's workload as another's: its status, its wait, its output", async () => {
      const first = row.spec('prints-and-exits-3');
      const earlier = await ended(runtime, await launched('prints-and-exits-3', first));
      // Launched again before the earlier one is removed (a crash between the two): that one,
      // saying its attempt, so that the runner removes it rather than take it for the new one.
      const again = await runtime.launch({ ...first, attempt: 2 });
      expect([again.id, again.attempt]).toEqual([earlier.id, 1]);
      await runtime.remove(earlier);

      const next = await running(
        await launched('runs', { ...row.spec('runs'), jobId: first.jobId, attempt: 2 }),
      );
      expect(next.id).not.toBe(earlier.id);
      expect((await runtime.inspect(first.jobId))?.attempt).toBe(2);
      // The earlier one's wait ends at once (gone is ended), not with the next attempt.
      await runtime.waitForChange({ ...earlier, status: 'running' });
      await expect(runtime.readOutput(earlier, { after: null, maxBytes: 1024 })).rejects.toThrow(
        RuntimeError,
      );
      const nextOutput = await runtime.readOutput(next, { after: null, maxBytes: 1024 });
      expect(nextOutput.lines).toEqual([]);
      await runtime.stop(next, 1);
      await runtime.remove(next);
    });

    it("lists only this store's workloads, and removes idempotently", async () => {
      const workload = await launched('runs');
      const other = row.runtime();
      expect((await other.list()).map((w) => w.jobId)).not.toContain(workload.jobId);
      expect(await other.inspect(workload.jobId)).toBeNull();
      expect((await runtime.list()).map((w) => w.jobId)).toContain(workload.jobId);
      await runtime.stop(workload, 1);
      await runtime.remove(workload);
      await runtime.remove(workload);
      expect(await runtime.inspect(workload.jobId)).toBeNull();
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
