import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql, type Kysely } from 'kysely';
import type { UpkeepLog } from '../ports';
import type { Database } from '../schema';

/**
 * The worker's whole program, CommonJS so that the bundle needs no file of its own for it. It is
 * handed the driver's resolved path: an eval'd worker resolves `require` from the process's
 * working directory, which for an installed package is anywhere.
 *
 * PASSIVE copies what it can without taking the write lock. Under steady writes it never catches
 * up with the last commit, so SQLite never starts the log over: past `restartAfterPages` RESTART
 * does, holding the write lock only to copy what the PASSIVE just before it left.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)');
    if (passive.log > workerData.restartAfterPages) db.pragma('wal_checkpoint(RESTART)');
  } catch (error) {
    parentPort.postMessage({ failed: error.message });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  parentPort.close();
});
parentPort.postMessage({ ready: true });
`;

/** SQLite's own default: a checkpoint once the log holds this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointerOptions {
  /** How often the rate of writes is sampled. */
  sampleMs: number;
  /** Rows changed per sample at which the worker is started (a submit changes three). */
  busyChanges: number;
  /** Samples below that rate after which the worker is stopped. */
  quietSamples: number;
  /** How often the worker checkpoints. */
  intervalMs: number;
  restartAfterPages: number;
  /**
   * The module the worker loads as its driver (tests make it fail with one that is not); by
   * default better-sqlite3, resolved when a worker starts rather than at every start-up.
   */
  driver?: string;
}

export const DEFAULT_CHECKPOINTER: CheckpointerOptions = {
  sampleMs: 1000,
  busyChanges: 500,
  quietSamples: 30,
  intervalMs: 1000,
  restartAfterPages: 10_000,
};

type Mode = 'sqlite' | 'starting' | 'worker' | 'retiring' | 'failed' | 'closed';

/**
 * SQLite's automatic checkpoint copies the log into the database file and syncs it inside a
 * commit, on the thread that committed: under a stream of submits, one request in some hundred
 * waited for it. While writes are heavy, a worker thread with its own connection checkpoints
 * instead (Job Submit's p99 fell and its rate rose in A/B runs: docs/benchmarks.md). It is not
 * kept when idle: its V8 isolate costs resident memory. Should it fail, the service's
 * connection checkpoints for itself again, for good.
 */
export class Checkpointer {
  private mode: Mode = 'sqlite';
  private worker: Worker | undefined;
  private lastChanges = 0;
  private quiet = 0;
  private readonly sampler: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly file: string,
    private readonly log: UpkeepLog,
    private readonly options: CheckpointerOptions = DEFAULT_CHECKPOINTER,
  ) {
    this.sampler = setInterval(() => this.guarded(this.sample()), options.sampleMs).unref();
  }

  /** Who checkpoints now: SQLite inside commits, or the worker. */
  get checkpointing(): Mode {
    return this.mode;
  }

  async close(): Promise<void> {
    clearInterval(this.sampler);
    const worker = this.worker;
    this.mode = 'closed';
    if (worker) await stopWorker(worker);
  }

  private async sample(): Promise<void> {
    const changes = await this.totalChanges().catch(() => this.lastChanges);
    const busy = changes - this.lastChanges >= this.options.busyChanges;
    this.lastChanges = changes;
    this.quiet = busy ? 0 : this.quiet + 1;
    if (busy && this.mode === 'sqlite') this.startWorker();
    if (this.quiet >= this.options.quietSamples && this.mode === 'worker') await this.retire();
  }

  private async totalChanges(): Promise<number> {
    const { rows } = await sql<{ n: number }>`select total_changes() as n`.execute(this.db);
    return rows[0]!.n;
  }

  private startWorker(): void {
    this.mode = 'starting';
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: this.options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3'),
        file: this.file,
        intervalMs: this.options.intervalMs,
        restartAfterPages: this.options.restartAfterPages,
      },
      // One connection and a timer: a small heap keeps the process small too.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 },
    });
    this.worker = worker;
    worker.on('message', (message: { ready?: true; failed?: string }) => {
      if (message.failed !== undefined) void this.fail(`a checkpoint failed: ${message.failed}`);
      else if (this.mode === 'starting') this.guarded(this.handOver());
    });
    worker.on('error', (error) => void this.fail(error.message));
    worker.on('exit', (code) => {
      if (this.worker === worker) void this.fail(`the worker exited with code ${code}`);
    });
  }

  /** A pragma refused (the store closing under it, a broken file) is the worker's end too. */
  private guarded(work: Promise<void>): void {
    work.catch((error: unknown) => this.fail((error as Error).message));
  }

  private async handOver(): Promise<void> {
    await this.autocheckpoint(0);
    if (this.mode !== 'starting') return;
    this.mode = 'worker';
    this.log.info('writes are heavy: a worker thread checkpoints the SQLite WAL');
  }

  /** SQLite's own checkpoint back on first, so that no moment goes without one. */
  private async retire(): Promise<void> {
    this.mode = 'retiring';
    await this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
    const worker = this.worker!;
    this.worker = undefined;
    await stopWorker(worker);
    if (this.mode !== 'retiring') return;
    this.mode = 'sqlite';
    this.log.info('writes are quiet: SQLite checkpoints its WAL itself again');
  }

  private async fail(reason: string): Promise<void> {
    if (this.mode === 'failed' || this.mode === 'closed' || this.mode === 'retiring') return;
    this.mode = 'failed';
    clearInterval(this.sampler);
    const worker = this.worker;
    this.worker = undefined;
    await this.autocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES).catch(() => undefined);
    this.log.warn(`SQLite checkpoints in the request thread again: ${reason}`);
    if (worker) await worker.terminate();
  }

  private async autocheckpoint(pages: number): Promise<void> {
    await sql.raw(`pragma wal_autocheckpoint = ${pages}`).execute(this.db);
  }
}

async function stopWorker(worker: Worker): Promise<void> {
  if (worker.threadId === -1) return; // exited already
  const exited = new Promise((done) => worker.once('exit', done));
  worker.postMessage('stop');
  await exited;
}
