/**
 * A client of the release before 031, writing to the store while a new release migrates it: it
 * submits jobs (a job and its transition, one transaction) and cancels seeded runnable jobs
 * (whose labels the new trigger then follows), timing each write. It knows nothing of the new
 * column, as an old instance in a rolling upgrade does.
 * Usage (the tests run it bundled, test/support/bundled-script.ts): node --import tsx
 * old-release-writer.ts '<store config JSON>' <dir> <seeded jobs>
 * Writes <dir>/ready once it writes; measures from <dir>/migrating on; stops at <dir>/stop and
 * prints a WriterReport.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { StoreConfig } from './beside';
import type { WriterReport } from './label-states-upgrade';

const [configJson, dir, seededText] = process.argv.slice(2);
const config = JSON.parse(configJson!) as StoreConfig;
const seeded = Number(seededText);

const SUBMIT_JOB = `INSERT INTO jobs (id, project, queue, definition, name, state, created_at,
  updated_at, image, command_json, env_json, timeout_seconds, stop_grace_seconds, network)
  VALUES ($1, 'b', 'b::eight', 'b::true:1', $1, 'submitted', $2, $2, 'jobdeck/busybox:local',
  '["true"]', '[]', 3600, 10, 'none')`;
const SUBMIT_TRANSITION = `INSERT INTO job_transitions (job_id, from_state, to_state, at)
  VALUES ($1, NULL, 'submitted', $2)`;
const CANCEL = `UPDATE jobs SET state = 'cancelled', updated_at = $2
  WHERE id = $1 AND state = 'runnable'`;

/** The two writes, on one connection of the store's driver. */
interface Writes {
  submit(id: string, at: number): Promise<void>;
  cancel(id: string, at: number): Promise<boolean>;
  close(): Promise<void>;
}

async function connect(): Promise<Writes> {
  if (config.store.type === 'sqlite') {
    const db = new SqliteDatabase(join(config.data_dir, config.store.path));
    // As the service waits for the write lock: long enough never to give up during a migration.
    db.pragma('busy_timeout = 600000');
    const named = (text: string) => text.replaceAll('$1', '@id').replaceAll('$2', '@at');
    const [job, transition, cancel] = [SUBMIT_JOB, SUBMIT_TRANSITION, CANCEL].map((text) =>
      db.prepare(named(text)),
    );
    const submit = db.transaction((values: { id: string; at: number }) => {
      job!.run(values);
      transition!.run(values);
    });
    return {
      submit: async (id, at) => submit.immediate({ id, at }),
      cancel: async (id, at) => cancel!.run({ id, at }).changes === 1,
      close: async () => {
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: config.store.url });
  await client.connect();
  return {
    async submit(id, at) {
      await client.query('BEGIN');
      await client.query(SUBMIT_JOB, [id, at]);
      await client.query(SUBMIT_TRANSITION, [id, at]);
      await client.query('COMMIT');
    },
    cancel: async (id, at) => (await client.query(CANCEL, [id, at])).rowCount === 1,
    close: () => client.end(),
  };
}

const writes = await connect();
const report: WriterReport = { writesDuring: 0, longestMs: 0, cancelled: 0 };
const [migrating, stop] = [join(dir!, 'migrating'), join(dir!, 'stop')];
for (let n = 0; !existsSync(stop); n += 1) {
  const measuring = existsSync(migrating);
  const began = performance.now();
  if (n % 2 === 0) {
    await writes.submit(`written-${n}`, Date.now());
  } else {
    // A runnable seeded job (seeded-0, seeded-4, …) anywhere in the store, filled yet or not.
    const i = 4 * Math.floor((Math.random() * seeded) / 4);
    if (await writes.cancel(`seeded-${i}`, Date.now())) report.cancelled += 1;
  }
  const took = performance.now() - began;
  if (n === 0) writeFileSync(join(dir!, 'ready'), '');
  if (measuring) {
    report.writesDuring += 1;
    report.longestMs = Math.max(report.longestMs, took);
  }
  // A client's pace, not a flood: the figure is how long one write waits.
  await new Promise((r) => setTimeout(r, 2));
}
await writes.close();
process.stdout.write(JSON.stringify(report));
