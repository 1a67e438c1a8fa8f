/**
 * By hand, not a step of `npm run bench` (minutes a store at 10⁶): how long a writer of the release
 * before waits while migration 031 fills the labels' states, as it shipped (one transaction) and
 * in batches (sql/backfill.ts), on SQLite and on a durable PostgreSQL.
 * Usage: node --import tsx bench/online-migration.ts [jobs=1000000] [sqlite|postgres …]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { StoreConfig } from '../test/store/beside';
import {
  applyBatched031,
  applyShipped031,
  seedLabelledJobs,
  startWriter,
  undo031,
  wrongLabelStates,
} from '../test/store/label-states-upgrade';
import { startPostgres } from '../test/support/postgres';

const [jobsArg, ...driversArg] = process.argv.slice(2);
const jobs = Number(jobsArg ?? 1_000_000);
const drivers = driversArg.length > 0 ? driversArg : ['sqlite', 'postgres'];
const postgres = drivers.includes('postgres') ? await startPostgres({ durable: true }) : undefined;
const dirs: string[] = [];

async function freshStore(driver: string, n: number): Promise<StoreConfig> {
  const dir = mkdtempSync(join(tmpdir(), 'jobdeck-online-migration-'));
  dirs.push(dir);
  if (driver === 'sqlite')
    return { store: { type: 'sqlite', path: 'jobdeck.sqlite' }, data_dir: dir };
  const admin = new pg.Client(postgres!.url);
  await admin.connect();
  await admin.query(`CREATE DATABASE online_${n}`);
  await admin.end();
  const url = postgres!.url.replace(/\/postgres$/, `/online_${n}`);
  return { store: { type: 'postgres', url, pool_size: 4 }, data_dir: dir };
}

try {
  let n = 0;
  for (const driver of drivers) {
    const ways: [string, (config: StoreConfig) => Promise<unknown>][] = [
      ['one transaction (as shipped)', applyShipped031],
      ['batched', applyBatched031],
    ];
    for (const [way, apply] of ways) {
      n += 1;
      const config = await freshStore(driver, n);
      await applyBatched031(config);
      await undo031(config);
      const seeding = performance.now();
      await seedLabelledJobs(config, jobs);
      const seededMs = performance.now() - seeding;
      const writer = await startWriter(config, dirs.at(-1)!, jobs);
      const began = performance.now();
      const { writer: report } = await writer.during(() => apply(config));
      const migrationMs = performance.now() - began;
      const wrong = await wrongLabelStates(config);
      process.stdout.write(
        `${driver} ${jobs} jobs (seeded in ${Math.round(seededMs / 1000)} s), ${way}: ` +
          `migration ${(migrationMs / 1000).toFixed(1)} s, ${report.writesDuring} writes meanwhile, ` +
          `longest write wait ${report.longestMs.toFixed(0)} ms, labels wrong ${wrong}\n`,
      );
    }
  }
} finally {
  postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
