import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../server/store/open-store';
import { execBeside, queryBeside, type StoreConfig } from './beside';
import { DRIVERS } from './drivers';
import { seedLabelledJobs, startWriter } from './label-states-upgrade';

const SEEDED = 100_000;

/** 042 undone on a migrated store: the store as the release before it left it. */
async function storeBefore042(config: StoreConfig): Promise<void> {
  await execBeside(
    config,
    `DROP INDEX jobs_by_definition; ALTER TABLE job_attempts DROP COLUMN memory_bytes;
    DELETE FROM schema_migrations WHERE name = '042-memory-sizing';
    DELETE FROM schema_backfills WHERE name = '042-memory-sizing';`,
  );
}

// PostgreSQL only: SQLite builds an index under its one write lock however it is asked to.
const postgres = DRIVERS.find((driver) => driver.name === 'postgres')!;

describe('migration 042 on postgres', () => {
  it(`builds its index over ${SEEDED.toLocaleString('en')} jobs while writers go on`, async () => {
    const config = await postgres.fresh();
    await storeBefore042(config);
    await seedLabelledJobs(config, SEEDED);
    const writer = await startWriter(
      config,
      mkdtempSync(join(tmpdir(), 'jobdeck-writer-')),
      SEEDED,
    );
    const { result, writer: report } = await writer.during(async () => {
      const store = await openStore(config);
      await store.close();
      return store.migrated;
    });
    console.log(
      `042 at ${SEEDED} jobs: ${report.writesDuring} writes meanwhile, the longest ${report.longestMs.toFixed(1)} ms`,
    );
    expect(result).toEqual(['042-memory-sizing']);
    expect(report.longestMs).toBeLessThan(1_000);
    expect(report.writesDuring).toBeGreaterThan(20);
    // Built whole (an index CONCURRENTLY left by a killed build is there but not valid).
    const [index] = await queryBeside<{ valid: boolean; def: string }>(
      config,
      `SELECT i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'jobs_by_definition'`,
    );
    expect(index).toEqual({
      valid: true,
      def: expect.stringContaining('ON public.jobs USING btree (definition, seq)'),
    });
    const [finished] = await queryBeside<{ finished_at: unknown }>(
      config,
      `SELECT finished_at FROM schema_backfills WHERE name = '042-memory-sizing'`,
    );
    expect(finished?.finished_at).not.toBeNull();
  }, 120_000);

  it('builds again an index a killed build left invalid', async () => {
    const config = await postgres.fresh();
    await storeBefore042(config);
    // As a process killed inside CREATE INDEX CONCURRENTLY leaves it: there, marked invalid,
    // and the migration recorded with its finish owed.
    await execBeside(
      config,
      `ALTER TABLE job_attempts ADD COLUMN memory_bytes bigint;
      CREATE INDEX jobs_by_definition ON jobs (definition, seq);
      UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'jobs_by_definition'::regclass;
      INSERT INTO schema_migrations (name, applied_at) VALUES ('042-memory-sizing', 0);
      INSERT INTO schema_backfills (name, next_key, filled, finished_at)
        VALUES ('042-memory-sizing', NULL, 1, NULL);`,
    );
    const store = await openStore(config);
    await store.close();
    const [index] = await queryBeside<{ valid: boolean }>(
      config,
      `SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = 'jobs_by_definition'::regclass`,
    );
    expect(index).toEqual({ valid: true });
  });
});
