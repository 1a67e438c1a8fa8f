import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RUN_OPTIONS } from '../../server/jobs/model';
import { PLACEMENT_NOTE_AFTER_MS } from '../../server/jobs/placement-notes';
import { newJob } from '../store/new-job';
import { MISSING_IMAGE, RECONCILE_MS, startDomain, until } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the runner and the reconciler, on a fake engine', () => {
  it('runs a job to completion and keeps its output', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    domain.engine.exit(id, 0, 'done\n');
    const job = await domain.waitFor(id, 'completed');
    expect(job.exitCode).toBe(0);
    expect(await domain.store.getLogs(id)).toEqual({
      lines: [{ stream: 'stdout', at: expect.stringMatching(/Z$/), text: 'done\n' }],
      truncated: false,
      sizes: { kept: { lines: 1, bytes: 5 }, printed: { lines: 1, bytes: 5 } },
    });
    expect(domain.engine.workload(id)).toBeUndefined(); // removed once recorded
    expect(await domain.history(id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'running',
      'completed',
    ]);
  });

  it("retries on a fresh workload, never taking an earlier attempt's leftover for the next", async () => {
    domain = await startDomain();
    const id = await domain.submit({
      retry: { attempts: 2, backoff: { initial_seconds: 0.3, jitter: 0 } },
    });
    await domain.waitFor(id, 'running');
    domain.engine.exit(id, 3, 'first\n');
    await domain.waitFor(id, 'runnable');
    // As if a crash had come between recording attempt 1 and removing its workload.
    await domain.engine.launch({
      jobId: id,
      attempt: 1,
      image: 'jobdeck/busybox:local',
      command: [],
      env: [],
      cpus: 1,
      memoryBytes: 1,
      pidsLimit: 1,
      stopGraceSeconds: 1,
      network: 'none',
      runOptions: DEFAULT_RUN_OPTIONS,
      host: null,
    });
    domain.engine.exit(id, 3);
    await domain.waitFor(id, 'running');
    expect(domain.engine.workload(id)?.attempt).toBe(2);
    expect(domain.engine.workload(id)?.spec.env).toContain('JOBDECK_ATTEMPT=2');
    domain.engine.exit(id, 0, 'second\n');
    await domain.waitFor(id, 'completed');
    const attempts = await domain.store.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.state, a.exitCode, a.retried])).toEqual([
      [1, 'failed', 3, true],
      [2, 'completed', 0, false],
    ]);
    expect((await domain.store.attemptLogs(id, 1))?.lines.map((l) => l.text)).toEqual(['first\n']);
    expect((await domain.store.getLogs(id))?.lines.map((l) => l.text)).toEqual(['second\n']);
  });

  it('stops a job cancelled while its container is being created, and starts it only once', async () => {
    domain = await startDomain();
    const release = domain.engine.holdLaunches();
    const id = await domain.submit();
    await domain.waitFor(id, 'starting');
    await domain.system.service.cancel('t', id, 'key:test');
    expect((await domain.system.service.detail('t', id)).state).toBe('cancelling');
    release();
    const job = await domain.waitFor(id, 'cancelled');
    expect(job.systemNote).toBe('cancelled on request; the container exited with code 143');
    expect(domain.engine.launches).toEqual([id]);
    expect(domain.engine.stops.map((s) => s.jobId)).toEqual([id]);
  });

  it('records a refused start as error, with every secret scrubbed from the engine message', async () => {
    domain = await startDomain();
    domain.engine.refuseImage(MISSING_IMAGE, 'bad env entry "TOKEN=s3cr3t-v4lue\\x00" refused');
    const id = await domain.submit({
      job_definition: 't::ghost:1',
      container_env: { TOKEN: { value: 's3cr3t-v4lue\u0000', sensitive: true } },
    });
    const job = await domain.waitFor(id, 'error');
    expect(job.systemNote).toBe('bad env entry "TOKEN=[TOKEN redacted]" refused');
  });

  it('keeps a job waiting, with a note naming the key, when its sealed value needs a key it lacks', async () => {
    domain = await startDomain();
    // Sealed by an instance (or a configuration) with another key: this one cannot open it.
    const job = newJob({
      project: 't',
      queue: 't::default',
      definition: 't::run:1',
      env: [{ name: 'TOKEN', sealed: 'v2:0123456789ab:aXY=:aXY=:aXY=' }],
    });
    await domain.store.insertJob(job, 'fingerprint', { to: 'runnable', note: null });
    let stored = await domain.store.getJob(job.id);
    for (let i = 0; i < 100 && !stored?.systemNote?.includes('secret key'); i += 1) {
      await sleep(50);
      stored = await domain.store.getJob(job.id);
    }
    expect(stored?.state).toBe('runnable');
    expect(stored?.systemNote).toMatch(/^waiting for secret key 0123456789ab: /);
    expect(domain.engine.launches).toEqual([]);
  });

  it('keeps a job the engine is still placing in starting, says why, and follows it once placed', async () => {
    domain = await startDomain();
    domain.engine.holdPlacement('no suitable node (insufficient resources on 3 nodes)');
    const id = await domain.submit();
    for (const deadline = Date.now() + 60_000; ; await sleep(10)) {
      const job = await domain.system.service.detail('t', id);
      if (
        job.systemNote ===
        'waiting for the container engine: no suitable node (insufficient resources on 3 nodes)'
      ) {
        expect(job.state).toBe('starting');
        break;
      }
      if (Date.now() > deadline) throw new Error(`the note never said why: ${job.systemNote}`);
    }
    domain.engine.place(id);
    await domain.waitFor(id, 'running');
    expect((await domain.store.transitions(id)).at(-1)?.note).toBe('running on node node-2');
    domain.engine.exit(id, 0);
    expect(await domain.waitFor(id, 'completed')).toMatchObject({ node: 'node-2' });
  });

  it('writes no placement note for a job placed within moments: its move to running says where', async () => {
    domain = await startDomain();
    const noted = vi.spyOn(domain.store, 'setNote');
    const waits = vi.spyOn(domain.engine, 'waitForChange');
    domain.engine.holdPlacement('no suitable node (insufficient resources on 3 nodes)');
    const id = await domain.submit();
    // The runner saw the workload waiting for placement and follows it.
    await until(
      async () => waits.mock.calls.some(([workload]) => workload.jobId === id),
      'the runner following the workload being placed',
      60_000,
    );
    domain.engine.place(id);
    await domain.waitFor(id, 'running', 60_000);
    // Past the moment a note would have been due: none was written, then or since.
    await sleep(PLACEMENT_NOTE_AFTER_MS * 2);
    expect(noted.mock.calls.map(([params]) => params.note)).toEqual([]);
    expect((await domain.store.getJob(id))?.systemNote).toBe('running on node node-2');
  });

  it(
    'writes no placement note for a job taken over while its workload waited to be placed',
    { timeout: 90_000 },
    async () => {
      domain = await startDomain();
      domain.engine.holdPlacement('no suitable node (insufficient resources on 3 nodes)');
      const { store } = domain;
      const setNote = store.setNote.bind(store);
      let id = '';
      let noted: Promise<void> | undefined;
      // Taken over in the half second before the note is due: the takeover commits just before it.
      store.setNote = (params) => {
        if (params.id !== id) return setNote(params);
        noted ??= (async () => {
          await store.takeOver({ from: domain.system.identity.id, to: 'instance-b' });
          await setNote(params);
        })();
        return noted;
      };
      id = await domain.submit();
      await until(() => noted !== undefined, 'the placement note falling due', 60_000);
      await noted;
      const job = (await store.getJob(id))!;
      expect([job.state, job.owner]).toEqual(['starting', 'instance-b']);
      expect(job.systemNote).not.toMatch(/no suitable node/);
    },
  );

  it('ends a job whose container exits while cancelling as cancelled, with the exit code', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    await domain.system.machine.move(
      await domain.store.getJob(id).then((j) => j!),
      'cancelling',
      null,
      {
        cancelRequestedAt: Date.now(),
      },
    );
    domain.engine.exit(id, 3);
    const job = await domain.waitFor(id, 'cancelled');
    expect(job.systemNote).toBe('cancelled on request; the container exited with code 3');
  });

  it('passes the definition grace period to the engine when it makes the workload', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    // A Swarm service fixes its stop grace period when it is created, not when it is stopped.
    expect(domain.engine.workload(id)?.spec.stopGraceSeconds).toBe(2);
  });

  it('cancels a job the engine is still placing by removing its workload, which never starts', async () => {
    domain = await startDomain();
    domain.engine.holdPlacement('no suitable node (insufficient resources on 3 nodes)');
    const id = await domain.submit();
    await domain.waitFor(id, 'starting');
    await domain.system.service.cancel('t', id, 'key:test');
    const job = await domain.waitFor(id, 'cancelled');
    expect(job.systemNote).toBe('cancelled on request before the container started');
    expect(domain.engine.workload(id)).toBeUndefined();
    expect(domain.engine.stops).toEqual([]);
  });

  it('records a job the engine ended for a reason of its own as error in its words, even on exit code 0', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const drained =
      'the swarm stopped it because its node n2 was drained (exit code 0); submit it again';
    domain.engine.endByEngine(id, 0, drained);
    const job = await domain.waitFor(id, 'error');
    expect(job.systemNote).toBe(drained);
    expect(job.exitCode).toBe(0);
    expect(domain.engine.workload(id)).toBeUndefined();
  });

  it('still ends a cancelling job the engine ended as cancelled, with its exit code', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const job = await domain.store.getJob(id);
    await domain.system.machine.move(job!, 'cancelling', null, { cancelRequestedAt: Date.now() });
    domain.engine.endByEngine(id, 143, 'the swarm stopped it because its node n2 was drained');
    expect((await domain.waitFor(id, 'cancelled')).systemNote).toBe(
      'cancelled on request; the container exited with code 143',
    );
  });

  it('marks a job whose node was lost as error with the engine note, and removes its workload', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const lost =
      'its node n3 stopped answering the swarm (heartbeat failure), so whether it ran to the end is unknown; submit it again';
    domain.engine.endByEngine(id, null, lost);
    const job = await domain.waitFor(id, 'error');
    expect(job.systemNote).toBe(lost);
    expect(job.exitCode).toBeNull();
    expect(domain.engine.workload(id)).toBeUndefined();
  });

  it('goes from starting straight to error when the engine could not start what it accepted', async () => {
    domain = await startDomain();
    domain.engine.holdPlacement('preparing on node n1');
    const id = await domain.submit();
    await domain.waitFor(id, 'starting');
    const missing = "image fake:job is not on the swarm's nodes; load it on every node";
    domain.engine.endByEngine(id, null, missing);
    const job = await domain.waitFor(id, 'error');
    expect(job.systemNote).toBe(missing);
    expect(await domain.history(id)).toEqual(['submitted', 'runnable', 'starting', 'error']);
  });

  it('marks a job whose container vanished as error, within a reconcile interval', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    domain.engine.vanish(id);
    const job = await domain.waitFor(id, 'error', RECONCILE_MS * 20);
    expect(job.systemNote).toContain('the container vanished');
  });

  it('times a job out at its deadline', async () => {
    domain = await startDomain();
    const id = await domain.submit({ job_definition: 't::brief:1' });
    const job = await domain.waitFor(id, 'timeout', 20_000);
    expect(job.systemNote).toBe('ran past its timeout of 1 s and was stopped (exit code 143)');
  });

  it('keeps jobs waiting while the engine is away, says why, and runs them when it is back', async () => {
    domain = await startDomain();
    const running = await domain.submit();
    await domain.waitFor(running, 'running');
    domain.engine.goAway();
    await sleep(RECONCILE_MS * 3);
    expect(domain.system.health.available).toBe(false);
    const waiting = await domain.submit();
    const held = await domain.waitFor(waiting, 'runnable');
    expect(held.systemNote).toMatch(/^waiting for the container engine: unreachable since \d{4}-/);
    const active = await domain.system.service.detail('t', running);
    expect(active.state).toBe('running');
    expect(active.systemNote).toMatch(
      /^the container engine is unreachable since .*; the job is settled once it answers$/,
    );
    // The engine stops every container while it is away: that exit is the engine's, not the job's.
    domain.engine.exit(running, 143);
    domain.engine.comeBack();
    const killed = await domain.waitFor(running, 'error');
    expect(killed.systemNote).toBe(
      'exited with code 143 while the container engine was stopped or unreachable, so the engine may have ended it; submit it again',
    );
    await domain.waitFor(waiting, 'running');
    domain.engine.exit(waiting, 0);
    await domain.waitFor(waiting, 'completed');
  });

  it("keeps an exit's own code across an outage: only a signal's exit may be the engine's", async () => {
    domain = await startDomain();
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push(await domain.submit());
    for (const id of ids) await domain.waitFor(id, 'running');
    const [failing, succeeding, signalled, outOfMemory] = ids as [string, string, string, string];
    domain.engine.goAway();
    await sleep(RECONCILE_MS * 3);
    expect(domain.system.health.available).toBe(false);
    // Each ends while the engine is away; the engine keeps what each exit was.
    domain.engine.exit(failing, 1);
    domain.engine.exit(succeeding, 0);
    domain.engine.exit(signalled, 143);
    domain.engine.killForMemory(outOfMemory);
    domain.engine.comeBack();
    const failed = await domain.waitFor(failing, ['failed', 'error']);
    expect([failed.state, failed.exitCode, failed.systemNote]).toEqual([
      'failed',
      1,
      'exited with code 1',
    ]);
    expect((await domain.waitFor(succeeding, ['completed', 'error'])).state).toBe('completed');
    const killed = await domain.waitFor(signalled, ['failed', 'error']);
    expect([killed.state, killed.systemNote]).toEqual([
      'error',
      'exited with code 143 while the container engine was stopped or unreachable, so the engine may have ended it; submit it again',
    ]);
    const oom = await domain.waitFor(outOfMemory, ['failed', 'error']);
    // Nothing was sampled before the engine went away: the note says so, never a made-up peak.
    expect([oom.state, oom.systemNote]).toEqual([
      'failed',
      'killed: out of memory at its 64 MiB limit (peak not sampled)',
    ]);
  });

  it('keeps what each attempt used from the samples, and quotes the peak when the kernel kills it for memory', async () => {
    domain = await startDomain();
    const MiB = 2 ** 20;
    const id = await domain.submit({ retry: { attempts: 2, backoff: { initial_seconds: 0.05 } } });
    await domain.waitFor(id, 'running');
    domain.engine.use(id, { memoryBytes: 20 * MiB, peakMemoryBytes: null, cpuNanos: 5e6 });
    await until(async () => (await domain.store.usage(id))[0]?.cpuNanos === 5e6, 'a sample');
    // A smaller sample later never lowers the peak kept (cgroup v2: no peak of the engine's own).
    domain.engine.use(id, { memoryBytes: 12 * MiB, peakMemoryBytes: null, cpuNanos: 9e6 });
    await until(async () => (await domain.store.usage(id))[0]?.cpuNanos === 9e6, 'a later one');
    expect((await domain.store.usage(id))[0]).toMatchObject({
      attempt: 1,
      peakMemoryBytes: 20 * MiB,
      peakExact: false,
      memoryLimitBytes: 64 * MiB,
      cpus: 1,
    });
    domain.engine.killForMemory(id);
    await until(async () => {
      const job = await domain.store.getJob(id);
      return job?.attempt === 2 && job.state === 'running';
    }, 'the second attempt running');
    const [first] = await domain.store.attempts(id);
    expect([first!.reason, first!.note]).toEqual([
      'oom_killed',
      'killed: out of memory at its 64 MiB limit (peak 20.0 MiB)',
    ]);
    // Exit 137 without the engine's word for memory: a SIGKILL for another reason.
    domain.engine.use(id, { memoryBytes: 2 * MiB, peakMemoryBytes: 3 * MiB, cpuNanos: 1e6 });
    await until(async () => (await domain.store.usage(id)).length === 2, 'attempt 2 sampled');
    domain.engine.exit(id, 137);
    const killed = await domain.waitFor(id, 'failed');
    expect(killed.systemNote).toBe('killed by signal 9 (not out of memory); exit code 137');
    expect((await domain.store.usage(id))[1]).toMatchObject({
      attempt: 2,
      peakMemoryBytes: 3 * MiB,
      peakExact: true,
    });
  });

  it('requeues a launch the engine was too far away to take, and starts it once it answers', async () => {
    domain = await startDomain();
    const release = domain.engine.holdLaunches();
    const id = await domain.submit();
    await domain.waitFor(id, 'starting');
    domain.engine.goAway();
    release();
    const requeued = await domain.waitFor(id, 'runnable');
    expect(requeued.systemNote).toMatch(/^waiting for the container engine/);
    domain.engine.comeBack();
    await domain.waitFor(id, 'running', RECONCILE_MS * 40);
    expect(await domain.history(id)).toEqual([
      'submitted',
      'runnable',
      'starting',
      'runnable',
      'starting',
      'running',
    ]);
  });

  it('recovers after a restart: adopts, records, requeues, and finishes a cancel past its grace', async () => {
    domain = await startDomain();
    const adopted = await domain.submit();
    const endsWhileDown = await domain.submit();
    const cancelledWhileDown = await domain.submit();
    for (const id of [adopted, endsWhileDown, cancelledWhileDown])
      await domain.waitFor(id, 'running');
    await domain.system.crash(); // the process is gone; the engine keeps going
    domain.engine.exit(endsWhileDown, 4);
    const cancelling = (await domain.store.getJob(cancelledWhileDown))!;
    await domain.system.machine.move(cancelling, 'cancelling', null, {
      cancelRequestedAt: Date.now() - 60_000, // its grace period ended long ago
    });
    // A job caught between its claim and its create: starting, with no container. (Submitted
    // while no dispatcher runs, it is runnable: admitted on insert.)
    const stranded = await domain.submit();
    await domain.system.machine.move((await domain.store.getJob(stranded))!, 'starting', null);
    await domain.restart();

    expect((await domain.waitFor(endsWhileDown, 'failed')).systemNote).toBe('exited with code 4');
    expect((await domain.waitFor(cancelledWhileDown, 'cancelled')).exitCode).toBe(143);
    expect(domain.engine.stops).toContainEqual({ jobId: cancelledWhileDown, graceSeconds: 0 });
    await domain.waitFor(stranded, 'running');
    expect(await domain.history(stranded)).toContain('runnable');
    domain.engine.exit(adopted, 0);
    await domain.waitFor(adopted, 'completed');
    for (const id of [adopted, endsWhileDown, cancelledWhileDown, stranded]) {
      expect(domain.engine.launches.filter((launched) => launched === id)).toHaveLength(1);
    }
  });

  it('settles an exit the fast path missed (a dropped wait), on the next pass', async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    domain.engine.goAway(); // the wait fails...
    domain.engine.comeBack(); // ...and the engine is back before any pass noticed
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed', RECONCILE_MS * 20);
  });
});

/** The runner's reads of the job (JobStore.getJob called from runner.ts), from now on. */
function runnerReads(store: Awaited<ReturnType<typeof startDomain>>['store'], id: string) {
  let reads = 0;
  const getJob = store.getJob.bind(store);
  store.getJob = (jobId) => {
    // A settle's reads: not the launch's ownership check, made only while this instance's
    // heartbeat is late (on a loaded machine, now and then).
    if (jobId === id && /Runner\.settleNow/.test(new Error().stack ?? '')) reads += 1;
    return getJob(jobId);
  };
  return () => reads;
}

describe('the runner, deciding from the job it claimed or moved', () => {
  // No reconciler pass: every settle is the runner's own (launch, workload changes).
  const NO_PASS_MS = 600_000;

  it('starts a job, follows it and records its end without reading it again', async () => {
    domain = await startDomain(undefined, { reconcileIntervalMs: NO_PASS_MS });
    domain.engine.holdPlacement('waiting for a node');
    const placing = 'waiting for the container engine: waiting for a node';
    const id = await domain.submit();
    const reads = runnerReads(domain.store, id);
    await until(
      async () => (await domain.waitFor(id, 'starting')).systemNote === placing,
      'the note of the placement',
      60_000,
    );
    domain.engine.place(id);
    await domain.waitFor(id, 'running', 60_000);
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed', 60_000);
    // The placement's wait is followed from the job as claimed (no settle was skipped during the
    // launch); the start and the end are moves made from the job in hand. It was 3 reads, then 1.
    expect(reads()).toBe(0);
  });

  it('follows a workload whose placement message changes from the job in hand', async () => {
    domain = await startDomain(undefined, { reconcileIntervalMs: NO_PASS_MS });
    const waits = vi.spyOn(domain.engine, 'waitForChange');
    const waitsOn = (id: string) => waits.mock.calls.filter(([w]) => w.jobId === id).length;
    domain.engine.holdPlacement('waiting for a slot');
    const id = await domain.submit();
    const reads = runnerReads(domain.store, id);
    await until(() => waitsOn(id) === 1, 'the runner following the workload', 60_000);
    domain.engine.stillPlacing(id, 'starting on node-2');
    await until(() => waitsOn(id) === 2, 'the runner following it on', 60_000);
    domain.engine.place(id);
    await domain.waitFor(id, 'running', 60_000);
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'completed', 60_000);
    // Followed from the job as claimed, the message's change too. It was 2 reads.
    expect(reads()).toBe(0);
  });

  it('reads a job whose settle a launch skipped: a cancel during the launch is not missed', async () => {
    domain = await startDomain(undefined, { reconcileIntervalMs: NO_PASS_MS });
    domain.engine.holdPlacement('waiting for a slot');
    const release = domain.engine.holdLaunches();
    const id = await domain.submit();
    await until(() => domain.engine.launches.includes(id), 'the launch under way', 60_000);
    // Cancelled by another instance: its signal's settle, the only one, finds the launch under way
    // and is skipped. (The runner heard the signal before this listener, added after it.)
    const starting = (await domain.store.getJob(id))!;
    await domain.system.machine.move(starting, 'cancelling', null, {
      cancelRequestedAt: Date.now(),
    });
    const heard = new Promise<void>((resolve) =>
      domain.signals.subscribe((signal) => {
        if (signal.kind === 'job' && signal.jobId === id) resolve();
      }),
    );
    await domain.signals.publish({ kind: 'job', jobId: id });
    await heard;
    await sleep(50); // its settle (a chain of promises, no I/O before the check) is over
    release();
    const job = await domain.waitFor(id, 'cancelled', 60_000);
    expect(job.systemNote).toBe('cancelled on request before the container started');
    expect(domain.engine.workload(id)).toBeUndefined();
  }, 60_000);

  it("settles each job a reconcile pass lists from the pass's own read of it", async () => {
    domain = await startDomain();
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const reads = runnerReads(domain.store, id);
    // Some ten passes, each settling the job: it was a read of it each.
    await sleep(RECONCILE_MS * 10);
    expect(reads()).toBe(0);
    // A cancel is followed by a settle of its own all the same.
    await domain.system.service.cancel('t', id, 'key:test');
    expect((await domain.waitFor(id, 'cancelled')).state).toBe('cancelled');
  });

  it('records an ordinary end without reading the attempt’s usage back (only an out-of-memory note names it)', async () => {
    domain = await startDomain(undefined, { reconcileIntervalMs: NO_PASS_MS });
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    domain.engine.use(id, { memoryBytes: 1024, peakMemoryBytes: 2048, cpuNanos: 1e6 });
    await until(async () => (await domain.store.usage(id)).length === 1, 'a sample');
    let readsBack = 0;
    const usage = domain.store.usage.bind(domain.store);
    domain.store.usage = (jobId) => {
      if (/usage-sampler\.ts/.test(new Error().stack ?? '')) readsBack += 1;
      return usage(jobId);
    };
    domain.engine.exit(id, 1);
    expect((await domain.waitFor(id, 'failed')).systemNote).toBe('exited with code 1');
    expect((await domain.store.usage(id))[0]).toMatchObject({ attempt: 1, peakMemoryBytes: 2048 });
    expect(readsBack).toBe(0);
  });

  it('moved meanwhile by another (no signal): its refused move reads the job again and ends it as it is', async () => {
    domain = await startDomain(undefined, { reconcileIntervalMs: NO_PASS_MS });
    const id = await domain.submit();
    await domain.waitFor(id, 'running');
    const reads = runnerReads(domain.store, id);
    // Cancelled as an instance that cannot signal this one would: the runner's copy says running.
    await domain.store.moveJob({
      id,
      from: 'running',
      to: 'cancelling',
      at: Date.now(),
      note: null,
      by: 'elsewhere',
    });
    domain.engine.exit(id, 0);
    await domain.waitFor(id, 'cancelled');
    expect(reads()).toBeGreaterThanOrEqual(1);
  });
});
