import type { Generated } from 'kysely';
import type {
  ApiKeysTable,
  MembersTable,
  OidcSignInsTable,
  SessionsTable,
  SignInFailuresTable,
  UsersTable,
} from './schema-identity';
import type {
  ShareUseTable,
  TrendOutcomesTable,
  TrendDurationsTable,
  TrendCursorTable,
  IncidentsTable,
} from './schema-trends';

/**
 * Column types as Kysely sees them, the same for every driver. Times are integer milliseconds
 * since the epoch (64-bit columns: `bigint` on PostgreSQL, read back as numbers).
 */
export interface JobsTable {
  seq: Generated<number>;
  id: string;
  project: string;
  queue: string;
  definition: string;
  name: string;
  state: string;
  system_note: string | null;
  schedule_at: number | null;
  created_at: number;
  updated_at: number | null;
  image: string;
  command_json: string;
  /** Sensitive values are sealed (AES-256-GCM) before they reach this column. */
  env_json: string;
  timeout_seconds: number;
  stop_grace_seconds: number;
  cpus: number | null;
  memory_bytes: number | null;
  network: string;
  container_id: string | null;
  exit_code: number | null;
  started_at: number | null;
  finished_at: number | null;
  cancel_requested_at: number | null;
  owner: string | null;
  /** Raised by every claim and takeover: an owner's moves hold only while it is unchanged. */
  owner_epoch: Generated<number>;
  /** RunOptions as JSON; null in rows from before it existed, read as the defaults. */
  run_options_json: string | null;
  /** The machine it ran on, when the engine said. */
  node: string | null;
  /** What it asks for to be placed; null in jobs stored before (035). */
  req_cpus: number | null;
  req_memory_bytes: number | null;
  req_gpus: number | null;
  /** The host Jobdeck placed it on as it claimed it. */
  host: string | null;
  /** Why a runnable job fits no host now, as its queue's last claim found. */
  placement_note: string | null;
  /** Its RetryStrategy as JSON; null: one attempt. */
  retry_json: string | null;
  attempt: Generated<number>;
  /** A runnable job waiting out its backoff is not claimed before this time. */
  not_before: number | null;
  /** Its dependencies as JSON (`[{ jobId, type }]`); null: none. */
  depends_json: string | null;
  /** An array's parent: its size (its children's JOBDECK_ARRAY_SIZE). */
  array_size: number | null;
  /** An array's parent submitted with array.indexes: those, ascending, as JSON; null: 0…size−1. */
  array_indexes_json: string | null;
  /** An array's parent: ArrayLinks as JSON; null: its children wait for nothing of the kind. */
  array_links_json: string | null;
  /** An array's child: its parent's id and its index (its command and env are the parent's). */
  array_parent: string | null;
  array_index: number | null;
  labels_json: string | null;
  /** Who submitted it (`key:<id>`, `user:<identity>`, `schedule:<ref>`); null in older rows. */
  submitted_by: string | null;
  /** Who asked for its cancel; null when nobody did, or in older rows. */
  cancel_requested_by: string | null;
  /** A running job being preempted: since when, and why in words; null: it is not. */
  preempt_requested_at: number | null;
  preempt_reason: string | null;
  /** How many of its attempts were preempted. */
  preemptions: Generated<number>;
}

/** One label of a job, for the list's label filters (the job row keeps them all, as JSON). */
export interface JobLabelsTable {
  job_seq: number;
  project: string;
  key: string;
  value: string;
  /** The job's state, kept by a trigger on jobs (migration 031): a label's count by state. */
  state: string;
}

/** A recurring schedule's shared state. */
export interface SchedulesTable {
  ref: string;
  paused: number;
  paused_reason: string | null;
  last_fired_at: number;
}

/** A queue's pause and slot limit as operators set them (null max_running: as configured). */
export interface QueueControlsTable {
  ref: string;
  paused: number;
  paused_reason: string | null;
  max_running: number | null;
  changed_at: number | null;
  changed_by: string | null;
  configured_paused: number;
  configured_max_running: number;
}

/** A view of the jobs table a project shares. */
export interface SavedViewsTable {
  project: string;
  name: string;
  search: string;
  created_by: string;
  saved_at: number;
}

/** An action on every job a filter matched, and how far it went. */
export interface BulkActionsTable {
  id: string;
  project: string;
  action: string;
  filter_json: string;
  state: string;
  matched: number;
  processed: Generated<number>;
  accepted: Generated<number>;
  refused: Generated<number>;
  cursor_seq: number;
  created_by: string;
  created_at: number;
  finished_at: number | null;
  owner: string | null;
  lease_until: Generated<number>;
}

/** What a bulk action did to one job. */
export interface BulkActionResultsTable {
  action_id: string;
  job_seq: number;
  job_id: string;
  job_name: string;
  state_before: string;
  result: string;
  message: string | null;
}

/** A project's webhook; its secret sealed (never in plaintext). */
export interface WebhooksTable {
  id: string;
  project: string;
  url: string;
  description: string;
  states_json: string;
  queues_json: string;
  labels_json: string;
  secret_sealed: string;
  from_seq: number;
  created_by: string;
  created_at: number;
}

/** How far the state changes were read for webhooks: one row, id 1. */
export interface WebhookCursorTable {
  id: number;
  seq: number;
}

/** One event for one webhook, with its latest attempt. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_type: string;
  job_id: string | null;
  payload: string;
  state: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: Generated<number>;
  last_status: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** One firing of a schedule: the job it submitted, or (job_id null) why none. */
export interface ScheduleFiringsTable {
  schedule: string;
  fire_at: number;
  job_id: string | null;
  note: string | null;
}

/** One dependency, keyed by the job waited for: what waits for a job is an index read. */
export interface JobDependenciesTable {
  depends_on: string;
  job_id: string;
  type: string;
  /** The state the job named ended in (migration 032's trigger); null while it has not. */
  ended_state: string | null;
}

/** Each attempt of a job that ended. */
export interface JobAttemptsTable {
  job_id: string;
  attempt: number;
  state: string;
  exit_code: number | null;
  reason: string;
  note: string | null;
  node: string | null;
  started_at: number | null;
  finished_at: number;
  retried: number;
  /** The newest part of its output (Brotli, as job_logs.output), when another attempt followed. */
  output: Buffer | null;
  truncated: number;
  /** The memory limit it ran with (migration 042); null in attempts recorded before. */
  memory_bytes: number | null;
}

/** What each attempt of a job used, as last sampled (migration 035). */
export interface JobUsageTable {
  job_id: string;
  attempt: number;
  peak_memory_bytes: number;
  peak_exact: number;
  cpu_nanos: number;
  memory_limit_bytes: number;
  cpus: number;
  samples: number;
  sampled_at: number;
}

export interface JobTransitionsTable {
  seq: Generated<number>;
  job_id: string;
  from_state: string | null;
  to_state: string;
  at: number;
  note: string | null;
  /** The instance that made the move; null for admissions and bulk moves of array children. */
  moved_by: Generated<string | null>;
  /** A claim's: the dispatcher lease's epoch it was fenced by (held by `moved_by` then). */
  lease_epoch: Generated<number | null>;
}

export interface JobLogsTable {
  job_id: string;
  /** The output of rows written before lines_json existed; empty in later rows. */
  text: string;
  truncated: number;
  /** `[stream, at, text]` per line, oldest first; null in rows written before it or after it. */
  lines_json: string | null;
  /** lines_json's format, Brotli-compressed: rows written since 009; null once dropped. */
  output: Buffer | null;
  /** The job's project, whose budget the row counts against. */
  project: string | null;
  /** What the row's output takes, as stored; 0 once dropped. */
  stored_bytes: number;
  /** When the output was kept (ms): the oldest are dropped first. */
  saved_at: number;
  /** What was kept of what the engine held (null in rows written before 009). */
  kept_lines: number | null;
  kept_bytes: number | null;
  printed_lines: number | null;
  printed_bytes: number | null;
}

/** Migration 015: the sum of a project's job_logs.stored_bytes, kept with every write to them. */
export interface ProjectOutputTable {
  project: string;
  /** The writing connection's (migration 049): a project's total is the sum of its shards. */
  shard: Generated<number>;
  stored_bytes: number;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface DefinitionFingerprintsTable {
  ref: string;
  fingerprint: string;
  first_used_at: number;
}

/** A lease: who holds it (under which epoch) until when; see migration 043. */
export interface LeasesTable {
  name: string;
  holder: string;
  epoch: number;
  expires_at: number;
}

export interface InstancesTable {
  id: string;
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
  stopped_at: number | null;
}

/**
 * How many jobs of a queue finished in a state within a minute (`bucket`, its start), kept by
 * triggers on `jobs` (migration 030); `shard` splits a bucket's row for concurrent writers.
 */
export interface QueueFinishedCountsTable {
  queue: string;
  bucket: number;
  state: string;
  shard: number;
  jobs: number;
}

export interface AuditEventsTable {
  seq: Generated<number>;
  id: string;
  project: string | null;
  at: number;
  actor: string;
  address: string;
  action: string;
  target: string | null;
  detail_json: string;
}

/** Job Submit's Idempotency-Key: the job a key made in its project, until expires_at. */
export interface IdempotencyKeysTable {
  project: string;
  idempotency_key: string;
  /** `<secret key id>:<HMAC-SHA-256>` of the request (SecretBox.digest), never the body. */
  request_digest: string;
  job_id: string;
  created_at: number;
  expires_at: number;
}

export interface Database {
  jobs: JobsTable;
  job_transitions: JobTransitionsTable;
  job_logs: JobLogsTable;
  project_output: ProjectOutputTable;
  job_attempts: JobAttemptsTable;
  job_usage: JobUsageTable;
  share_use: ShareUseTable;
  job_dependencies: JobDependenciesTable;
  schedules: SchedulesTable;
  schedule_firings: ScheduleFiringsTable;
  queue_controls: QueueControlsTable;
  job_labels: JobLabelsTable;
  saved_views: SavedViewsTable;
  bulk_actions: BulkActionsTable;
  bulk_action_results: BulkActionResultsTable;
  webhooks: WebhooksTable;
  webhook_cursor: WebhookCursorTable;
  webhook_deliveries: WebhookDeliveriesTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  members: MembersTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  oidc_sign_ins: OidcSignInsTable;
  meta: MetaTable;
  definition_fingerprints: DefinitionFingerprintsTable;
  instances: InstancesTable;
  leases: LeasesTable;
  queue_finished_counts: QueueFinishedCountsTable;
  trend_outcomes: TrendOutcomesTable;
  trend_durations: TrendDurationsTable;
  trend_cursor: TrendCursorTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  incidents: IncidentsTable;
}
