/**
 * The floor under Job Submit: what storing a job durably costs on this machine, with nothing of
 * Jobdeck around it. Fastify parses the same body with the same zod schema; each job is the same
 * row in the same tables (made by Jobdeck's own migrations, opened with its pragmas) with its two
 * transitions, written by plain prepared statements in Jobdeck's group commit (WriteBatch). No
 * key lookup, no plan, no query builder. `--no-auto-checkpoint` turns SQLite's automatic
 * WAL checkpoint off, to show what the checkpoint costs the tail. Prints its URL on stdout.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { v7 as timeOrderedUuid } from 'uuid';
import { DEFAULT_LIMITS, buildSubmitJobSchema } from '../contract';
import { shortId } from '../server/jobs/submission';
import { NEW_JOB_COLUMNS } from '../server/store/sql/hot-queries';
import { WriteBatch } from '../server/store/sql/write-batch';
import { openSqliteFile } from '../server/store/sqlite/connection';
import { openSqliteStore } from '../server/store/sqlite/open';

const file = join(mkdtempSync(join(tmpdir(), 'jobdeck-floor-')), 'floor.sqlite');
await (await openSqliteStore(file)).close();
const db = openSqliteFile(file);
if (process.argv.includes('--no-auto-checkpoint')) db.pragma('wal_autocheckpoint = 0');

type NewJobRow = Record<(typeof NEW_JOB_COLUMNS)[number], string | number | null>;
const insertJob = db.prepare<[NewJobRow], { seq: number }>(
  `INSERT INTO jobs (${NEW_JOB_COLUMNS.join(', ')})
   VALUES (${NEW_JOB_COLUMNS.map((column) => `@${column}`).join(', ')}) RETURNING seq`,
);
const insertTransition = db.prepare(
  'INSERT INTO job_transitions (job_id, from_state, to_state, at, note) VALUES (?, ?, ?, ?, ?)',
);
const writeAll = db.transaction((ids: string[]) => {
  for (const id of ids) {
    const now = Date.now();
    insertJob.get({
      id,
      project: 'b',
      queue: 'b::paused',
      definition: 'b::true:1',
      name: `true-${shortId(id)}`,
      state: 'runnable',
      system_note: null,
      schedule_at: null,
      created_at: now,
      updated_at: now,
      image: 'jobdeck/busybox:local',
      command_json: '["true"]',
      env_json: '[]',
      timeout_seconds: 3600,
      stop_grace_seconds: 10,
      cpus: null,
      memory_bytes: null,
      req_cpus: null,
      req_memory_bytes: null,
      req_gpus: null,
      network: 'none',
      run_options_json: '{"user":null,"readOnlyRootfs":false,"placement":[]}',
      retry_json: null,
      depends_json: null,
      array_size: null,
      array_links_json: null,
      array_indexes_json: null,
      array_parent: null,
      array_index: null,
      labels_json: null,
      submitted_by: 'key:bench',
    });
    insertTransition.run(id, null, 'submitted', now, null);
    insertTransition.run(id, 'submitted', 'runnable', now, null);
  }
});

// Jobdeck's own group commit: the jobs asked for in one turn of the event loop, or while a batch
// is written, share one transaction.
const commits = new WriteBatch<string, void>(
  async (ids) => {
    writeAll(ids);
    return ids.map(() => undefined);
  },
  async (id) => writeAll([id]),
);

const schema = buildSubmitJobSchema(DEFAULT_LIMITS);
const app = Fastify();
app.post('/v1/client/job', async (request, reply) => {
  const parsed = schema.safeParse(request.body);
  if (!parsed.success) return reply.code(400).send({ ok: false, message: 'invalid' });
  const id = timeOrderedUuid();
  await commits.add(id);
  return reply.code(202).send({ ok: true, data: { id } });
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${url}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
