import { describe, expect, it } from 'vitest';
import { detail, logsOf, shScript, statesOf, submit, transitions, waitForState } from './jobs';
import type { TestService } from './service';

/**
 * The service's lifecycle, cancel and recovery cases, written once and run on every engine the
 * service runs on: the local Docker Engine and the simulated engine (test/service/engines.ts),
 * the swarm (test/swarm). Each engine says how a job does what a case asks (a script in a
 * container, or the simulated engine's JOBDECK_SIMULATE_* variables).
 */
export type JobBehaviour =
  /** Prints `hi there` and exits with 0. */
  | 'greets'
  /** Prints `oops` on stderr and exits with 3. */
  | 'fails-with-3'
  /** Runs for a minute, and ends on SIGTERM. */
  | 'runs'
  /** Runs for a minute, and ignores SIGTERM: only the grace period's SIGKILL ends it. */
  | 'ignores-term'
  /** Runs past its definition's 1 s timeout. */
  | 'overruns'
  /** Prints `hello` at once, in a queue that is paused. */
  | 'waits-in-paused-queue';

/** The service on one engine, as the cases use it. */
export interface ServiceContext {
  service: TestService;
  /** Container starts per job, as the engine's own events count them, where they can be read. */
  starts?: { byJob(): Promise<Map<string, number>> };
}

export interface EngineCasesRow {
  name: string;
  /**
   * Registers the hooks that start the service before the cases and stop it after: called inside
   * their describe (or once per file, whose cases then share the service).
   */
  serviceForCases(): ServiceContext;
  job(behaviour: JobBehaviour): Record<string, unknown>;
  /** The nodes a job may run on, for an engine that has several (named in its running note). */
  nodes?: readonly string[];
  /** What the engine holds of a job (its container, service, network): '' once it is removed. */
  leftOf?(jobId: string): string;
  /** The note of a job whose image the engine lacks, for an engine that runs images. */
  missingImageNote?: RegExp;
  /** Whether the definition's memory and CPU limits reach the job (t::limited:1 prints them). */
  appliesLimits: boolean;
  /** What a restart of the service finds on an engine that outlives it (not the simulated one's). */
  recovery?: {
    /** Removes the job's workload behind the service's back. */
    removeWorkload(jobId: string): void | Promise<void>;
    /** Resolves once the job's workload has exited by itself. */
    exited(jobId: string): Promise<void>;
  };
}

/** The jobs of JobBehaviour in a real container (the test services' definitions). */
export const CONTAINER_JOBS: Record<JobBehaviour, Record<string, unknown>> = {
  greets: { job_definition: 't::echo:1', container_cmd_parameter: { greeting: 'hi there' } },
  'fails-with-3': shScript('echo oops >&2; exit 3'),
  runs: { job_definition: 't::sleep:1' },
  'ignores-term': { job_definition: 't::stubborn:1' },
  overruns: { job_definition: 't::short:1' },
  'waits-in-paused-queue': { job_definition: 't::echo:1', job_queue: 't::paused' },
};

const NOTES = {
  cancelledBeforeStart: 'cancelled on request before it started',
  cancelled: (code: number) => `cancelled on request; the container exited with code ${code}`,
  vanished:
    'the Jobdeck instance running it stopped, and its container is gone, so its outcome is unknown; submit it again',
};

/** The node a job ran on, from the note the runner wrote when it started. */
export async function nodeOfJob(service: TestService, id: string): Promise<string> {
  const running = (await transitions(service, id)).find((t) => t.to === 'running');
  const node = /^running on node (\S+)$/.exec(running?.note ?? '')?.[1];
  if (!node) throw new Error(`job ${id} has no running note: ${JSON.stringify(running)}`);
  return node;
}

export type CasesPart = 'lifecycle' | 'cancel' | 'recovery';

/**
 * The lifecycle, cancel and recovery cases on one engine (those `parts` of them: a file per part
 * runs them side by side), then the check that each job they ran started once.
 */
export function describeEngineCases(
  row: EngineCasesRow,
  context: ServiceContext,
  parts: readonly CasesPart[] = ['lifecycle', 'cancel', 'recovery'],
): void {
  const submitted: string[] = [];
  /** A job doing `what`, or with that payload (on the real engines alone). */
  const run = async (what: JobBehaviour | Record<string, unknown>) => {
    const id = await submit(context.service, typeof what === 'string' ? row.job(what) : what);
    submitted.push(id);
    return id;
  };
  const removed = async (id: string) => {
    if (row.leftOf) await expect.poll(() => row.leftOf!(id), { timeout: 30_000 }).toBe('');
  };

  describe.runIf(parts.includes('lifecycle'))(`a job on ${row.name}`, () => {
    it('completes on exit code 0, its output kept, its path recorded, its workload removed', async () => {
      const { service } = context;
      const id = await run('greets');
      const job = await waitForState(service, id, 'completed');
      expect(job.system_note).toBeNull();
      expect(await logsOf(service, id)).toBe('hi there\n');
      expect(await statesOf(service, id)).toEqual([
        'submitted',
        'runnable',
        'starting',
        'running',
        'completed',
      ]);
      if (row.nodes) expect(row.nodes).toContain(await nodeOfJob(service, id));
      await removed(id);
    });

    it('fails on a non-zero exit and says the code', async () => {
      const id = await run('fails-with-3');
      const job = await waitForState(context.service, id, 'failed');
      expect(job.system_note).toBe('exited with code 3');
      // The one line it printed (the simulated engine prints an empty one on stdout with it).
      const lines = (await logsOf(context.service, id)).split('\n').filter(Boolean);
      expect(lines).toEqual(['oops']);
    });

    it('times out past the definition timeout and is stopped', async () => {
      const id = await run('overruns');
      const job = await waitForState(context.service, id, 'timeout');
      // Its process ends on the SIGTERM: 143.
      expect(job.system_note).toBe('ran past its timeout of 1 s and was stopped (exit code 143)');
    });

    it.runIf(row.missingImageNote)(
      'is an error with an actionable note when the image is missing, and never ran',
      async () => {
        const id = await run({ job_definition: 't::ghost:1' });
        const job = await waitForState(context.service, id, 'error');
        expect(job.system_note).toMatch(row.missingImageNote!);
        expect(await statesOf(context.service, id)).toEqual([
          'submitted',
          'runnable',
          'starting',
          'error',
        ]);
      },
    );

    it.runIf(row.appliesLimits)(
      'applies the definition memory and CPU limits to the container',
      async () => {
        const id = await run({ job_definition: 't::limited:1' });
        await waitForState(context.service, id, 'completed');
        const [memory, cpu] = (await logsOf(context.service, id)).trim().split('\n');
        expect(Number(memory)).toBe(64 * 1024 * 1024);
        // cgroup v2 prints "50000 100000"; v1 prints the quota for a 100000 µs period.
        expect(cpu!.split(' ')[0]).toBe('50000');
      },
    );
  });

  describe.runIf(parts.includes('cancel'))(`Cancel Job on ${row.name}`, () => {
    const cancel = (id: string) => context.service.request('POST', `/v1/client/job/${id}/cancel`);

    it('stops a running job through cancelling: SIGTERM (143), or SIGKILL after the grace period (137); a retried cancel is safe', async () => {
      const { service } = context;
      const polite = await run('runs');
      const stubborn = await run('ignores-term');
      for (const id of [polite, stubborn]) await waitForState(service, id, 'running');
      for (const id of [polite, stubborn]) {
        expect((await cancel(id)).status).toBe(202);
        expect(['cancelling', 'cancelled']).toContain((await detail(service, id)).state);
        expect((await cancel(id)).status).toBe(202);
      }
      expect((await waitForState(service, polite, 'cancelled')).system_note).toBe(
        NOTES.cancelled(143),
      );
      // It ignores SIGTERM: only the definition's 1 s grace period ends it.
      expect((await waitForState(service, stubborn, 'cancelled')).system_note).toBe(
        NOTES.cancelled(137),
      );
      for (const id of [polite, stubborn]) {
        expect(await statesOf(service, id)).toEqual([
          'submitted',
          'runnable',
          'starting',
          'running',
          'cancelling',
          'cancelled',
        ]);
        expect((await cancel(id)).status).toBe(202);
        await removed(id);
      }
    });

    it('cancels a waiting job at once, and it never reaches the engine', async () => {
      const id = await run('waits-in-paused-queue');
      await waitForState(context.service, id, 'runnable');
      expect((await cancel(id)).status).toBe(202);
      const job = await detail(context.service, id);
      expect([job.state, job.system_note]).toEqual(['cancelled', NOTES.cancelledBeforeStart]);
      expect(await statesOf(context.service, id)).toEqual(['submitted', 'runnable', 'cancelled']);
    });
  });

  if (row.recovery && parts.includes('recovery'))
    describeRecovery(row, row.recovery, context, run, removed);

  it.runIf(context.starts)(
    `started each job that ran on ${row.name} exactly once, counted by the engine itself`,
    async () => {
      const byJob = await context.starts!.byJob();
      for (const id of submitted) {
        const ran = (await statesOf(context.service, id)).includes('running');
        expect(byJob.get(id) ?? 0, id).toBe(ran ? 1 : 0);
      }
    },
  );
}

function describeRecovery(
  row: EngineCasesRow,
  engine: NonNullable<EngineCasesRow['recovery']>,
  context: ServiceContext,
  run: (what: JobBehaviour | Record<string, unknown>) => Promise<string>,
  removed: (id: string) => Promise<void>,
): void {
  describe(`Jobdeck killed (kill -9) while jobs run on ${row.name}`, () => {
    it('adopts what runs, records what ended meanwhile, errors what vanished, finishes a cancel, runs what fell due', async () => {
      const { service } = context;
      const adopt = await run(shScript('sleep 12; echo survived'));
      // Long enough to be seen running on a loaded machine (CI once saw it fail within 5 s of its
      // submit); the test then waits for it to exit rather than for a fixed time.
      const endsWhileDown = await run(shScript('sleep 6; exit 4'));
      const vanishes = await run('runs');
      const cancelled = await run('ignores-term');
      const waiting = await run({ ...row.job('greets'), schedule_at: Date.now() / 1000 + 10 });
      const active = [adopt, endsWhileDown, vanishes, cancelled];
      for (const id of active) await waitForState(service, id, 'running');
      await service.request('POST', `/v1/client/job/${cancelled}/cancel`);
      expect((await detail(service, cancelled)).state).toBe('cancelling');

      await service.stop('SIGKILL'); // no chance to clean up
      await engine.removeWorkload(vanishes);
      await engine.exited(endsWhileDown);
      await service.restart();

      expect((await waitForState(service, endsWhileDown, 'failed')).system_note).toBe(
        'exited with code 4',
      );
      expect((await waitForState(service, vanishes, 'error')).system_note).toBe(NOTES.vanished);
      expect((await waitForState(service, cancelled, 'cancelled')).system_note).toBe(
        NOTES.cancelled(137),
      );
      await waitForState(service, adopt, 'completed');
      expect(await logsOf(service, adopt)).toBe('survived\n');
      await waitForState(service, waiting, 'completed');
      for (const id of [...active, waiting]) {
        // Adopted, not started twice: one start in its history.
        expect(
          (await statesOf(service, id)).filter((s) => s === 'starting'),
          id,
        ).toHaveLength(1);
      }
      // Removed once settled: the removal follows the final state (after the output is kept);
      // what a crash or a removal behind Jobdeck's back left is swept.
      for (const id of [...active, waiting]) await removed(id);
    });
  });
}
