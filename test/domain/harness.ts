import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { catalogFromConfig } from '../../server/config/catalog';
import { configSchema } from '../../server/config/schema';
import { createJobSystem, type JobSystem } from '../../server/jobs/job-system';
import type { Job } from '../../server/jobs/model';
import { FakeRuntime } from '../../server/runtime/fake/fake-runtime';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';
import { SqlJobStore } from '../../server/store/job-store';
import { openSqlite } from '../../server/store/sqlite';
import type { JobState, SubmitJobRequest } from '../../contract';

/** The image the fake engine refuses, as a real one refuses an image it does not have. */
export const MISSING_IMAGE = 'missing:image';
export const RECONCILE_MS = 50;

export const projects = {
  t: {
    queues: { default: { max_running: 4 } },
    definitions: {
      run: { '1': { image: 'fake:job', stop_grace_seconds: 2 } },
      brief: { '1': { image: 'fake:job', timeout_seconds: 1, stop_grace_seconds: 1 } },
      ghost: { '1': { image: MISSING_IMAGE } },
    },
  },
};

/**
 * The real domain (dispatcher, runner, reconciler, state machine) on a real SQLite store and a
 * fake engine: each test drives the engine's faults directly.
 */
export async function startDomain(engine = new FakeRuntime(), dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'jobdeck-domain-'));
  const db = await openSqlite(join(dir, 'jobdeck.sqlite'));
  const store = new SqlJobStore(db);
  const config = configSchema.parse({ projects, data_dir: dir });
  const key = randomBytes(32);
  let system: JobSystem = build();

  function build(): JobSystem {
    return createJobSystem(
      {
        store,
        runtime: engine,
        secrets: new AesGcmSecretBox(key),
        catalog: catalogFromConfig(config),
        logger: pino({ level: 'silent' }),
      },
      {
        logTailBytes: 64,
        defaults: { cpus: 1, memoryBytes: 64 * 1024 ** 2, pidsLimit: 64 },
        reconcileIntervalMs: RECONCILE_MS,
      },
    );
  }

  await system.start();
  const domain = {
    engine,
    store,
    get system() {
      return system;
    },
    submit: (payload: Partial<SubmitJobRequest> = {}) =>
      system.service.submit('t', {
        job_definition: 't::run:1',
        job_queue: 't::default',
        ...payload,
      }),
    /** A process that died without a word, and a new one on the same store and engine. */
    async restart(): Promise<void> {
      await system.stop();
      system = build();
      await system.start();
    },
    async waitFor(id: string, states: JobState | JobState[], timeoutMs = 5000): Promise<Job> {
      const wanted = [states].flat();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const job = await system.service.detail('t', id);
        if (wanted.includes(job.state)) return job;
        if (Date.now() > deadline) {
          throw new Error(`job ${id} is ${job.state} (${job.systemNote}), not ${wanted.join('/')}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async history(id: string): Promise<JobState[]> {
      return (await store.transitions(id)).map((t) => t.to);
    },
    async close(): Promise<void> {
      await system.stop();
      await db.destroy();
    },
  };
  return domain;
}
