import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { Checkpointer, DEFAULT_CHECKPOINTER, type CheckpointerOptions } from './checkpointer';
import { openSqliteFile, withStatementCache } from './connection';
import { ImmediateTransactionDialect } from './dialect';

// Fast enough for a test: sampled every 50 ms, busy at 10 rows a sample, quiet after 4 samples.
const QUICK: CheckpointerOptions = {
  ...DEFAULT_CHECKPOINTER,
  sampleMs: 50,
  busyChanges: 10,
  quietSamples: 4,
  intervalMs: 50,
};

let dir: string;
let file: string;
let db: Kysely<Database>;
let logged: string[];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'jobdeck-checkpointer-'));
  file = join(dir, 'jobdeck.sqlite');
  db = new Kysely<Database>({
    dialect: new ImmediateTransactionDialect({
      database: withStatementCache(openSqliteFile(file)),
    }),
  });
  await sql`create table filler (bytes blob)`.execute(db);
  logged = [];
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const log = {
  info: (message: string) => logged.push(`info: ${message}`),
  warn: (message: string) => logged.push(`warn: ${message}`),
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const autocheckpointPages = async () =>
  (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!
    .wal_autocheckpoint;
/** 64 rows of 16 KiB: some 260 pages of log. */
const write = () =>
  db.transaction().execute(async (tx) => {
    for (let i = 0; i < 64; i += 1) {
      await sql`insert into filler values (randomblob(16384))`.execute(tx);
    }
  });

async function until(what: string, done: () => boolean | Promise<boolean>, writing = false) {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (writing) await write();
    await sleep(10);
  }
}

describe('the SQLite checkpointer', () => {
  it('checkpoints in its worker while writes are heavy, and gives the checkpoint back to SQLite when they stop', async () => {
    const checkpointer = new Checkpointer(db, file, log, QUICK);
    try {
      expect(checkpointer.checkpointing).toBe('sqlite');
      expect(await autocheckpointPages()).toBe(1000);

      await until('the worker', () => checkpointer.checkpointing === 'worker', true);
      expect(await autocheckpointPages()).toBe(0);
      // The service's connection no longer copies the log into the database file, so the file
      // grows only by the worker's checkpoints.
      const before = sizeOf(file);
      await until('the database file to grow', () => sizeOf(file) > before + 4 * 1024 ** 2, true);
      expect(checkpointer.checkpointing).toBe('worker');

      await until('SQLite to checkpoint again', () => checkpointer.checkpointing === 'sqlite');
      expect(await autocheckpointPages()).toBe(1000);
      expect(sizeOf(`${file}-wal`)).toBe(0); // the worker truncated the log as it left
      expect(logged).toEqual([
        'info: writes are heavy: a worker thread checkpoints the SQLite WAL',
        'info: writes are quiet: SQLite checkpoints its WAL itself again',
      ]);
    } finally {
      await checkpointer.close();
    }
  });

  it('hands the checkpoint back to SQLite, and says why, when its worker fails', async () => {
    const broken = { ...QUICK, driver: join(dir, 'no-such-driver.js') };
    const checkpointer = new Checkpointer(db, file, log, broken);
    try {
      await until('the failure', () => checkpointer.checkpointing === 'failed', true);
      expect(await autocheckpointPages()).toBe(1000);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        /^warn: SQLite checkpoints in the request thread again: Cannot find module .*no-such-driver\.js/,
      );
      // For good: heavy writes do not start another worker.
      for (let i = 0; i < 10; i += 1) await write();
      await sleep(QUICK.sampleMs * 3);
      expect(checkpointer.checkpointing).toBe('failed');
    } finally {
      await checkpointer.close();
    }
  });

  it('stops its worker on close; the last connection to close removes the log', async () => {
    const checkpointer = new Checkpointer(db, file, log, QUICK);
    await until('the worker', () => checkpointer.checkpointing === 'worker', true);
    await checkpointer.close();
    expect(checkpointer.checkpointing).toBe('closed');
    await db.destroy();
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(logged).toEqual(['info: writes are heavy: a worker thread checkpoints the SQLite WAL']);
  });
});
