import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('project', 'text', (c) => c.notNull())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('system_note', 'text')
    .addColumn('schedule_at', 'integer')
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer')
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('command_json', 'text', (c) => c.notNull())
    .addColumn('env_json', 'text', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('stop_grace_seconds', 'integer', (c) => c.notNull())
    .addColumn('cpus', 'real')
    .addColumn('memory_bytes', 'integer')
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text')
    .addColumn('exit_code', 'integer')
    .addColumn('started_at', 'integer')
    .addColumn('finished_at', 'integer')
    .addColumn('cancel_requested_at', 'integer')
    .execute();
  // The dispatcher's questions: what is due, what is next in a queue, what holds a slot.
  await db.schema
    .createIndex('jobs_state_queue_seq')
    .on('jobs')
    .columns(['state', 'queue', 'seq'])
    .execute();
  await db.schema
    .createIndex('jobs_state_schedule')
    .on('jobs')
    .columns(['state', 'schedule_at'])
    .execute();
  await db.schema.createIndex('jobs_project_seq').on('jobs').columns(['project', 'seq']).execute();
  // A name is unique among the unfinished jobs of a queue; the database enforces it, not a race-prone check.
  await sql`CREATE UNIQUE INDEX jobs_active_name ON jobs (queue, name)
    WHERE state NOT IN ('cancelled', 'timeout', 'completed', 'failed', 'error')`.execute(db);

  await db.schema
    .createTable('job_transitions')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id'))
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .execute();
  await db.schema
    .createIndex('job_transitions_job')
    .on('job_transitions')
    .columns(['job_id', 'seq'])
    .execute();

  await db.schema
    .createTable('job_logs')
    .addColumn('job_id', 'text', (c) => c.primaryKey().references('jobs.id'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('truncated', 'integer', (c) => c.notNull())
    .execute();
}
