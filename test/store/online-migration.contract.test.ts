import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRIVERS, queryBeside, runWorker, type StoreConfig } from './drivers';
import {
  applyBatched031,
  applyShipped031,
  seedLabelledJobs,
  startWriter,
  undo031,
  wrongLabelStates,
} from './label-states-upgrade';

/** Enough that 031 as it shipped held writes for a second or more on PostgreSQL. */
const SEEDED = 100_000;

async function storeBefore031(driver: (typeof DRIVERS)[number], jobs: number) {
  const config = await driver.empty();
  await applyBatched031(config); // every migration, on an empty store
  await undo031(config);
  await seedLabelledJobs(config, jobs);
  return config;
}

/** Every table's rows and the whole schema, as text to compare (bookkeeping left out). */
async function contents(config: StoreConfig) {
  const postgres = config.store.type === 'postgres';
  const schema = await queryBeside<Record<string, unknown>>(
    config,
    postgres
      ? `SELECT 'column' AS kind, table_name || '.' || column_name AS name,
           concat_ws(' ', data_type, is_nullable, column_default, ordinal_position) AS def
         FROM information_schema.columns WHERE table_schema = 'public'
         UNION ALL SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'
         UNION ALL SELECT 'trigger', tgname, pg_get_triggerdef(oid) FROM pg_trigger
           WHERE NOT tgisinternal
         UNION ALL SELECT 'function', proname, prosrc FROM pg_proc WHERE proname LIKE 'jobdeck_%'
         UNION ALL SELECT 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint
           WHERE connamespace = 'public'::regnamespace
         ORDER BY 1, 2`
      : `SELECT type AS kind, name, sql AS def FROM sqlite_master ORDER BY 1, 2`,
  );
  // SQLite keeps a statement's text as written: the same definition, spaced otherwise.
  const spaced = (def: unknown) => (typeof def === 'string' ? def.replace(/\s+/g, ' ') : def);
  const tables = await queryBeside<{ name: string }>(
    config,
    postgres
      ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`
      : `SELECT name FROM sqlite_master WHERE type = 'table'`,
  );
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    if (name === 'schema_migrations' || name === 'schema_backfills') continue;
    const all = await queryBeside<unknown>(config, `SELECT * FROM ${name}`);
    rows[name] = all.map((row) => JSON.stringify(row)).sort();
  }
  return { schema: schema.map((row) => ({ ...row, def: spaced(row.def) })), rows };
}

const FINISHED = expect.anything();

async function progressOf031(config: StoreConfig) {
  const [row] = await queryBeside<{ next_key: unknown; filled: number; finished_at: unknown }>(
    config,
    `SELECT next_key, filled, finished_at FROM schema_backfills WHERE name = '031-label-states'`,
  );
  return row;
}

describe.each(DRIVERS)('migration 031 in batches on $name', (driver) => {
  it('leaves the schema and the rows 031 left when it was one transaction', async () => {
    const [shipped, batched] = await Promise.all([
      storeBefore031(driver, 12_345),
      storeBefore031(driver, 12_345),
    ]);
    await applyShipped031(shipped);
    expect(await applyBatched031(batched)).toEqual(['031-label-states']);
    const [before, after] = [await contents(shipped), await contents(batched)];
    expect(after.schema).toEqual(before.schema);
    expect(after.rows).toEqual(before.rows);
    // Compared over rows that were filled: 031's column holds the jobs' states.
    expect(after.rows.job_labels!.some((row) => row.includes('"state":"runnable"'))).toBe(true);
  });

  // Its timeout: seconds on an idle machine, a minute on one shared at a load average of 30.
  it(`fills ${SEEDED.toLocaleString('en')} jobs' labels while an old release writes: no write waits a second`, async () => {
    const config = await storeBefore031(driver, SEEDED);
    const writer = await startWriter(
      config,
      mkdtempSync(join(tmpdir(), 'jobdeck-writer-')),
      SEEDED,
    );
    const began = performance.now();
    const { result, writer: report } = await writer.during(() => applyBatched031(config));
    const migrationMs = performance.now() - began;
    console.log(
      `031 on ${driver.name} at ${SEEDED} jobs: ${Math.round(migrationMs)} ms, ` +
        `${report.writesDuring} writes meanwhile, the longest ${report.longestMs.toFixed(1)} ms`,
    );
    expect(result).toEqual(['031-label-states']);
    expect(report.longestMs).toBeLessThan(1_000);
    // The writer did write all along, and moved jobs whose labels were not filled yet.
    expect(report.writesDuring).toBeGreaterThan(20);
    expect(report.cancelled).toBeGreaterThan(0);
    expect(await wrongLabelStates(config)).toBe(0);
    expect(await progressOf031(config)).toMatchObject({ filled: 1, finished_at: FINISHED });
  }, 120_000);

  it('goes on from its last batch at the next start after a kill', async () => {
    const config = await storeBefore031(driver, 12_345);
    const killed = await runWorker(config, ['open'], {
      JOBDECK_FAILPOINT: 'backfill:031-label-states',
    });
    expect(killed.signal).toBe('SIGKILL');
    // One batch committed and recorded, the rest not filled.
    expect(await progressOf031(config)).toMatchObject({ filled: 0, finished_at: null });
    const [row] = await queryBeside<{ unfilled: number | string }>(
      config,
      `SELECT count(*) AS unfilled FROM job_labels WHERE state = ''`,
    );
    const unfilled = Number(row!.unfilled);
    expect(unfilled).toBeGreaterThan(0);
    expect(await wrongLabelStates(config)).toBe(unfilled);

    const restarted = await runWorker(config, ['open']);
    expect(JSON.parse(restarted.stdout)).toEqual({ migrated: [] });
    expect(await wrongLabelStates(config)).toBe(0);
    expect(await progressOf031(config)).toMatchObject({ filled: 1, finished_at: FINISHED });
  });

  it('is filled by one of several processes starting at once, the others waiting', async () => {
    const config = await storeBefore031(driver, 12_345);
    const exits = await Promise.all([1, 2, 3].map(() => runWorker(config, ['open'])));
    const migrated = exits.map(
      (exit) => (JSON.parse(exit.stdout) as { migrated: string[] }).migrated,
    );
    expect(migrated.flat()).toEqual(['031-label-states']);
    // Each opened only once the fill was done: none counts labels by a state not there yet.
    expect(await wrongLabelStates(config)).toBe(0);
    expect(await progressOf031(config)).toMatchObject({ filled: 1, finished_at: FINISHED });
  });
});
