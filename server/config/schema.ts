import { z } from 'zod';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../contract';

const positiveInt = z.number().int('must be a whole number').positive('must be positive');
const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"');

/** Docker-style sizes: 512m, 1g, 65536 (bytes). */
const memorySize = z
  .union([
    z.number().int().positive(),
    z.string().regex(/^\d+[kmg]?$/i, 'must look like 512m or 1g'),
  ])
  .transform((value) => {
    if (typeof value === 'number') return value;
    const units: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
    const unit = value.slice(-1).toLowerCase();
    return units[unit] ? Number.parseInt(value, 10) * units[unit] : Number.parseInt(value, 10);
  });

/** What Swarm accepts as a placement constraint: an attribute, == or !=, a value. */
const placementConstraint = z
  .string()
  .regex(
    /^(node\.(id|hostname|role|platform\.os|platform\.arch|labels\.[^\s=!]+)|engine\.labels\.[^\s=!]+)\s*(==|!=)\s*[^\s=!][^=!]*$/,
    'must look like node.labels.KEY==VALUE: node.id, node.hostname, node.role, node.platform.os, node.platform.arch, node.labels.KEY or engine.labels.KEY, then == or !=, then a value',
  );

const definitionSchema = z.strictObject({
  image: z.string().min(1),
  command: z.array(z.string()).default([]),
  parameters: z.record(z.string(), z.string()).default({}),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  timeout_seconds: positiveInt.default(3600),
  stop_grace_seconds: z.number().int().min(0).default(10),
  cpus: z.number().positive().optional(),
  memory: memorySize.optional(),
  network: z.string().default('none'),
  /** `uid[:gid]` (or a user the image knows) to run as instead of the image's user. */
  user: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)?$/, 'must look like 1000, 1000:1000 or a user name')
    .optional(),
  /** The container's root filesystem read-only (a small /tmp stays writable). */
  read_only_root: z.boolean().optional(),
  /** Placement constraints, for engines with several machines (`node.labels.gpu==true`). */
  placement: z.array(placementConstraint).optional(),
});

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/** A tiny init as PID 1 forwards SIGTERM to the job, so a grace period means something. */
const init = z.boolean().default(true);

/** The local Docker Engine, the default. */
const dockerEngineSchema = z.strictObject({
  type: z.literal('docker'),
  socket: z.string().default(DEFAULT_DOCKER_SOCKET),
  init,
});

/** A Docker Swarm, through one of its managers. */
const swarmEngineSchema = z
  .strictObject({
    type: z.literal('swarm'),
    /** The manager's unix socket (the default: this machine's engine, if it is a manager). */
    socket: z.string().optional(),
    /** Or the manager's Engine API over plain TCP: only on a network you trust. */
    host: z
      .string()
      .regex(/^[^\s:/]+:\d{1,5}$/, 'must be host:port, e.g. 10.0.0.5:2375')
      .optional(),
    /** Where every job may run; the swarm's scheduler picks among the nodes that match. */
    constraints: z.array(placementConstraint).default([]),
    /** How a job with network `none` is isolated (see docs/swarm.md). */
    isolation: z
      .enum(['job-network', 'node-bridge'], 'must be job-network or node-bridge')
      .default('job-network'),
    init,
  })
  .refine((engine) => !(engine.socket && engine.host), {
    message: "give the manager's socket or its host, not both",
    path: ['host'],
  });

const engineSchema = z.discriminatedUnion('type', [dockerEngineSchema, swarmEngineSchema], {
  error: 'must be docker or swarm',
});

/** Limits every job container gets unless its definition sets its own. */
const jobDefaultsSchema = z.strictObject({
  memory: memorySize.default(512 * 1024 ** 2),
  cpus: z.number().positive().default(1),
  /** Processes and threads a job may have at once: a fork bomb stops here. */
  pids_limit: positiveInt.default(512),
});

const queueSchema = z.strictObject({
  max_running: positiveInt.default(4),
  priority: z.number().int().default(0),
  /** Jobs are accepted and wait as runnable; nothing starts until the queue is unpaused. */
  paused: z.boolean().default(false),
});

const projectSchema = z.strictObject({
  queues: z.record(identifier, queueSchema),
  definitions: z.record(identifier, z.record(identifier, definitionSchema)),
});

/** Where `store.url` comes from when the file leaves it out (so a password can stay out of it). */
export const DATABASE_URL_VARIABLE = 'JOBDECK_DATABASE_URL';

const storeSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('sqlite'),
      /** Relative to data_dir. */
      path: z.string().min(1).default('jobdeck.sqlite'),
    }),
    z.strictObject({
      type: z.literal('postgres'),
      url: z
        .string({ error: `missing: set store.url or the ${DATABASE_URL_VARIABLE} variable` })
        .regex(
          /^postgres(ql)?:\/\//,
          `must be a postgres:// or postgresql:// URL (from store.url or ${DATABASE_URL_VARIABLE})`,
        ),
      pool_size: positiveInt.default(10),
    }),
  ],
  { error: 'must be sqlite or postgres' },
);

export const configSchema = z
  .strictObject({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8080),
    console_port: z.number().int().min(0).max(65535).default(8081),
    /** Host names the console answers to besides loopback and `host` (DNS-rebinding guard). */
    console_hosts: z.array(z.string()).default([]),
    data_dir: z.string().default('./data'),
    engine: engineSchema.default({ type: 'docker', socket: DEFAULT_DOCKER_SOCKET, init: true }),
    job_defaults: jobDefaultsSchema.default({ memory: 512 * 1024 ** 2, cpus: 1, pids_limit: 512 }),
    /** How often every unfinished job is compared with the engine (and the engine pinged). */
    reconcile_interval_seconds: z.number().positive().max(60).default(2),
    /** How long an instance sharing the store may stay silent before another takes over its jobs. */
    instance_timeout_seconds: z.number().positive().default(15),
    max_running: positiveInt.default(16),
    log_tail_bytes: positiveInt.default(64 * 1024),
    body_limit_bytes: positiveInt.default(DEFAULT_BODY_LIMIT_BYTES),
    /** Requests per minute per API key; 0 turns the limit off. */
    rate_limit_per_minute: z.number().int().min(0).default(1200),
    /** Failed authentications per minute per client address before 429; 0 turns the limit off. */
    auth_failures_per_minute: z.number().int().min(0).default(30),
    /** How long a client may take; a slow or stalled one is cut (408) so it cannot hold a connection. */
    http_timeouts: z
      .strictObject({
        headers_seconds: positiveInt.default(10),
        request_seconds: positiveInt.default(30),
        keep_alive_seconds: positiveInt.default(5),
      })
      .refine((t) => t.headers_seconds <= t.request_seconds, {
        message: 'headers_seconds: must not exceed request_seconds',
      })
      .default({ headers_seconds: 10, request_seconds: 30, keep_alive_seconds: 5 }),
    /**
     * Jobdeck's extensions under /v1/client (job list, transitions, logs, execution, queues,
     * events) and the OpenAPI document; false leaves the spec's three operations only.
     */
    extensions: z.boolean().default(true),
    /** The event stream extension. */
    events: z
      .strictObject({
        /** Streams one API key may hold open at once on one instance; more get a 429. */
        streams_per_key: positiveInt.default(4),
        /** A comment line this often, so that proxies keep an idle stream open. */
        heartbeat_seconds: positiveInt.default(15),
      })
      .default({ streams_per_key: 4, heartbeat_seconds: 15 }),
    /** Base64 of 32 bytes; when absent a 0600 key file in data_dir is used. */
    secret_key: z.string().optional(),
    /** Earlier secret keys (base64): they open what they sealed, never seal (see secrets rotate). */
    retired_secret_keys: z.array(z.string()).default([]),
    /** Extra labels on every job container (ownership, cost allocation); Jobdeck's own win. */
    container_labels: z.record(z.string(), z.string()).default({}),
    log_level: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    projects: z.record(identifier, projectSchema),
    /** The embedded default: one SQLite file in data_dir. */
    store: storeSchema.default({ type: 'sqlite', path: 'jobdeck.sqlite' }),
  })
  .refine((config) => config.instance_timeout_seconds >= 3 * config.reconcile_interval_seconds, {
    path: ['instance_timeout_seconds'],
    message:
      'must be at least 3 × reconcile_interval_seconds (an instance beats once per interval; fewer beats would make live instances look lost)',
  });

export type JobdeckConfig = z.infer<typeof configSchema>;
export type EngineConfig = z.infer<typeof engineSchema>;
