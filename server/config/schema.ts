import { ROLES } from '../../contract';
import { isIP } from 'node:net';
import { z } from 'zod';
import { Cron } from 'croner';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFINITION_REF,
  QUEUE_REF,
  SCHEDULE_MISSED,
  SCHEDULE_OVERLAPS,
  labelsSchema,
  retryStrategySchema,
} from '../../contract';

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: what a trusted proxy is named by. */
function isAddressOrNetwork(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const positiveInt = z.number().int('must be a whole number').positive('must be positive');
const identifier = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"');

/** Output kept of each ended job unless job_output says otherwise. */
export const DEFAULT_KEPT_OUTPUT_BYTES = 10 * 1024 ** 2;

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

/** How long finished jobs are kept unless `retention` says otherwise. */
export const DEFAULT_KEEP_FINISHED = '14d';

const PERIOD_UNITS_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const PERIOD_PROBLEM = 'must be a period like 14d, 12h, 30m or 90s, or forever';

/**
 * How long a finished job is kept: `14d`, `12h`, `30m`, `90s`, or `forever`; as milliseconds,
 * null for forever. "Forever" is a word of its own, never a default: a store that only grows
 * must be chosen.
 */
const keepPeriod = z
  .string(PERIOD_PROBLEM)
  .regex(/^(forever|[1-9]\d{0,5}[smhd])$/, PERIOD_PROBLEM)
  .transform((text) =>
    text === 'forever'
      ? null
      : Number.parseInt(text, 10) * (PERIOD_UNITS_MS[text.slice(-1)] ?? Number.NaN),
  );

// Every key says what it is (.describe): docs/configuration.md's reference is generated from it.
const definitionSchema = z
  .strictObject({
    image: z
      .string()
      .min(1)
      .describe('The image to run; never pulled: it must be on the engine (or every swarm node)'),
    command: z
      .array(z.string())
      .default([])
      .describe('Command words; `Param::key` words are replaced by parameters'),
    parameters: z
      .record(z.string(), z.string())
      .default({})
      .describe("Default parameters; a submission's `container_cmd_parameter` overrides them"),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string())
      .default({})
      .describe("Environment variables; a submission's `container_env` is applied on top"),
    timeout_seconds: positiveInt
      .default(3600)
      .describe('A job running longer is stopped and ends `timeout`'),
    stop_grace_seconds: z
      .number()
      .int()
      .min(0)
      .default(10)
      .describe('Between SIGTERM and SIGKILL when a job is cancelled or times out'),
    cpus: z
      .number()
      .positive()
      .optional()
      .describe('CPUs a job may use (`job_defaults.cpus` if unset)'),
    memory: memorySize
      .optional()
      .describe('Memory a job may use, as 512m or 1g (`job_defaults.memory` if unset)'),
    network: z
      .string()
      .default('none')
      .describe("The container's network; `none`: no network at all"),
    user: z
      .string()
      .regex(
        /^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)?$/,
        'must look like 1000, 1000:1000 or a user name',
      )
      .optional()
      .describe("`uid[:gid]` (or a user the image knows) to run as instead of the image's user"),
    read_only_root: z
      .boolean()
      .optional()
      .describe("The container's root filesystem read-only (a writable 64 MiB `/tmp` stays)"),
    placement: z
      .array(placementConstraint)
      .optional()
      .describe(
        'Placement constraints for engines with several machines (`node.labels.gpu==true`); the local engine ignores them',
      ),
    retry: retryStrategySchema
      .optional()
      .describe(
        'How its jobs are tried again: `attempts` (1–10), `backoff` and `on_exit` rules (docs/guides/retries.md); a submission may replace it',
      ),
  })
  .describe('One version of the definition: what a job of it runs');

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

/** A key for AES-256-GCM, as `openssl rand -base64 32` prints one. */
const secretKey = z
  .string()
  .refine(
    (text) =>
      /^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()) && Buffer.from(text, 'base64').length === 32,
    'must be base64 of 32 random bytes (openssl rand -base64 32)',
  );

const init = z
  .boolean()
  .default(true)
  .describe('A tiny init as PID 1 forwards SIGTERM to the job, so a grace period means something');

/** The local Docker Engine, the default. */
const dockerEngineSchema = z.strictObject({
  type: z.literal('docker').describe('The local Docker Engine'),
  socket: z.string().default(DEFAULT_DOCKER_SOCKET).describe("The engine's unix socket"),
  init,
});

/** A Docker Swarm, through one of its managers. */
const swarmEngineSchema = z
  .strictObject({
    type: z.literal('swarm').describe('A Docker Swarm, through one of its managers'),
    socket: z
      .string()
      .optional()
      .describe(
        "A manager's unix socket (without `socket` or `host`: this machine's, /var/run/docker.sock)",
      ),
    host: z
      .string()
      .regex(/^[^\s:/]+:\d{1,5}$/, 'must be host:port, e.g. 10.0.0.5:2375')
      .optional()
      .describe(
        "Or a manager's Engine API over plain TCP, `host:port`: only on a network you trust",
      ),
    constraints: z
      .array(placementConstraint)
      .default([])
      .describe("Where every job may run (Swarm's syntax); the swarm picks among matching nodes"),
    isolation: z
      .enum(['job-network', 'node-bridge'], 'must be job-network or node-bridge')
      .default('job-network')
      .describe(
        'How a job with network `none` is isolated: an internal overlay network of its own, or none attached (see docs/swarm.md)',
      ),
    init,
  })
  .refine((engine) => !(engine.socket && engine.host), {
    message: "give the manager's socket or its host, not both",
    path: ['host'],
  });

const milliseconds = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(86_400_000, 'must be at most a day (86400000)');

/** A fixed duration, or one drawn uniformly between two bounds for each job. */
const span = z.union(
  [
    milliseconds,
    z
      .strictObject({ min: milliseconds, max: milliseconds })
      .refine((s) => s.min <= s.max, { message: 'min must not exceed max', path: ['max'] }),
  ],
  { error: 'must be milliseconds, or { min, max } in milliseconds' },
);

/** No containers: jobs pass through every state on simulated nodes (docs/engines.md). */
const simulatedEngineSchema = z.strictObject({
  type: z
    .literal('simulated')
    .describe(
      'Starts nothing: jobs take simulated times on simulated nodes, to measure the control plane alone (never for real work)',
    ),
  nodes: positiveInt.max(100_000, 'must be at most 100000').default(10).describe('Simulated nodes'),
  slots_per_node: positiveInt
    .max(10_000, 'must be at most 10000')
    .default(16)
    .describe('Jobs a node runs at once; more wait, pending, for a free slot'),
  start_ms: span
    .default({ min: 100, max: 1000 })
    .describe('From a free slot to running: milliseconds, or { min, max } drawn for each job'),
  run_ms: span
    .default({ min: 1000, max: 10_000 })
    .describe('From running to its exit: milliseconds, or { min, max } drawn for each job'),
  exit_codes: z
    .record(z.string(), z.number().positive('must be a positive weight'))
    .superRefine((codes, context) => {
      if (Object.keys(codes).length === 0) {
        context.addIssue({ code: 'custom', message: 'must name at least one exit code' });
      }
      // Checked here, not by the record's key schema, whose failure names no reason.
      for (const code of Object.keys(codes).filter(
        (c) => !/^(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(c),
      )) {
        context.addIssue({
          code: 'custom',
          message: 'must be an exit code, 0 to 255',
          path: [code],
        });
      }
    })
    .default({ '0': 1 })
    .describe('Exit codes drawn for the jobs, with their weights: { "0": 95, "1": 5 }'),
  faults: z
    .strictObject({
      node_loss_every_seconds: z
        .number()
        .positive('must be positive')
        .optional()
        .describe('Every so often the busiest node is lost, with its jobs (then replaced)'),
      outage_every_seconds: z
        .number()
        .positive('must be positive')
        .optional()
        .describe('Every so often the engine stops answering, for outage_seconds'),
      outage_seconds: z
        .number()
        .positive('must be positive')
        .default(10)
        .describe('How long each outage lasts'),
    })
    .default({ outage_seconds: 10 })
    .describe('Faults on a timer (none by default)'),
});

const engineSchema = z.discriminatedUnion(
  'type',
  [dockerEngineSchema, swarmEngineSchema, simulatedEngineSchema],
  { error: 'must be docker, swarm or simulated' },
);

const jobDefaultsSchema = z.strictObject({
  memory: memorySize.default(512 * 1024 ** 2).describe('Memory a job may use (default 512m)'),
  cpus: z.number().positive().default(1).describe('CPUs a job may use'),
  pids_limit: positiveInt
    .default(512)
    .describe('Processes and threads a job may have at once: a fork bomb stops here'),
});

const queueSchema = z
  .strictObject({
    max_running: positiveInt.default(4).describe("The queue's jobs holding a slot at once"),
    priority: z
      .number()
      .int()
      .default(0)
      .describe('Higher queues get free slots of the service first'),
    paused: z
      .boolean()
      .default(false)
      .describe(
        'Jobs are accepted and wait as runnable; nothing starts until the queue is resumed (through the API, or by editing this)',
      ),
    max_running_ceiling: positiveInt
      .optional()
      .describe(
        "The most max_running an operator may set through the API (default: the larger of the queue's and the service's max_running)",
      ),
    keep_finished_jobs: keepPeriod
      .optional()
      .describe(
        "How long the queue's finished jobs are kept (14d, 12h, forever); default: the project's",
      ),
  })
  .refine((q) => q.max_running_ceiling === undefined || q.max_running_ceiling >= q.max_running, {
    path: ['max_running_ceiling'],
    message: "must be at least the queue's max_running",
  });

/** Why croner cannot read the expression, if it cannot. */
function cronProblem(cron: string): string | undefined {
  try {
    new Cron(cron, { paused: true }).nextRun();
    return undefined;
  } catch (error) {
    const reason = (error as Error).message.replace(/^CronPattern: /, '');
    return `must be a cron expression of five fields, or six with seconds first: ${reason}`;
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const scheduleSchema = z
  .strictObject({
    job_definition: z
      .string()
      .regex(DEFINITION_REF, 'must look like <project>::<definition>:<version>')
      .describe('What each firing submits: a definition of this project'),
    job_queue: z
      .string()
      .regex(QUEUE_REF, 'must look like <project>::<queue>')
      .describe('The queue of this project each firing submits to'),
    cron: z
      .string()
      .superRefine((cron, context) => {
        const problem = cronProblem(cron);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .describe(
        'When it fires: five fields (minute hour day month weekday), or six with seconds first',
      ),
    timezone: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Paris')
      .default('UTC')
      .describe('The IANA time zone the cron expression is read in (Europe/Paris)'),
    overlap: z
      .enum(SCHEDULE_OVERLAPS)
      .default('skip')
      .describe(
        "While the previous firing's job has not finished: `skip` this firing, `allow` both, or `cancel_previous`",
      ),
    missed: z
      .enum(SCHEDULE_MISSED)
      .default('run_once')
      .describe(
        'A firing whose time passed while no instance ran: `run_once` (the latest missed one runs once) or `skip`',
      ),
    missed_after_seconds: positiveInt
      .default(60)
      .describe('How late a firing is when it counts as missed'),
    container_cmd_parameter: z
      .record(z.string(), z.string())
      .default({})
      .describe("Parameters of each firing's job, over the definition's"),
    labels: labelsSchema
      .default({})
      .describe(
        "Labels of each firing's job, to find a schedule's jobs in the list (ticket: OPS-1)",
      ),
    paused: z
      .boolean()
      .default(false)
      .describe('Paused at first start; after that the API (or the console) pauses and resumes it'),
  })
  .describe('A recurring schedule: each firing submits an ordinary job');

const projectSchema = z
  .strictObject({
    queues: z.record(identifier, queueSchema).describe("The project's job queues, by name"),
    definitions: z
      .record(identifier, z.record(identifier, definitionSchema))
      .describe(
        "The project's job definitions, by name and then version; a version is immutable once a job used it",
      ),
    schedules: z
      .record(identifier, scheduleSchema)
      .default({})
      .describe('Recurring schedules by name (docs/guides/schedules.md)'),
    keep_finished_jobs: keepPeriod
      .optional()
      .describe(
        "How long the project's finished jobs are kept (14d, 12h, forever); default: retention.keep_finished_jobs",
      ),
  })
  // A schedule's definition and queue must be this project's and declared in it.
  .superRefine((project, context) => {
    for (const [name, schedule] of Object.entries(project.schedules)) {
      const [, , definitionName, version] = DEFINITION_REF.exec(schedule.job_definition) ?? [];
      if (!project.definitions[definitionName ?? '']?.[version ?? '']) {
        context.addIssue({
          code: 'custom',
          path: ['schedules', name, 'job_definition'],
          message: `no definition "${schedule.job_definition}" is declared in this project`,
        });
      }
      const [, , queueName] = QUEUE_REF.exec(schedule.job_queue) ?? [];
      if (!project.queues[queueName ?? '']) {
        context.addIssue({
          code: 'custom',
          path: ['schedules', name, 'job_queue'],
          message: `no queue "${schedule.job_queue}" is declared in this project`,
        });
      }
    }
  });

/** Where `store.url` comes from when the file leaves it out (so a password can stay out of it). */
export const DATABASE_URL_VARIABLE = 'JOBDECK_DATABASE_URL';

const storeSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('sqlite').describe('The embedded store: one SQLite file'),
      path: z.string().min(1).default('jobdeck.sqlite').describe('The file, relative to data_dir'),
    }),
    z.strictObject({
      type: z
        .literal('postgres')
        .describe('A PostgreSQL database, which several instances can share'),
      url: z
        .string({ error: `missing: set store.url or the ${DATABASE_URL_VARIABLE} variable` })
        .regex(
          /^postgres(ql)?:\/\//,
          `must be a postgres:// or postgresql:// URL (from store.url or ${DATABASE_URL_VARIABLE})`,
        )
        .describe(
          `postgresql://user:password@host/db; without it in the file, ${DATABASE_URL_VARIABLE} gives it (no password in the file)`,
        ),
      pool_size: positiveInt.default(10).describe('Connections to PostgreSQL at most, per process'),
    }),
  ],
  { error: 'must be sqlite or postgres' },
);

export const configSchema = z
  .strictObject({
    host: z.string().default('127.0.0.1').describe('Where the API and the console listen'),
    port: z.number().int().min(0).max(65535).default(8080).describe("The API's port"),
    console_port: z.number().int().min(0).max(65535).default(8081).describe("The console's port"),
    console_hosts: z
      .array(z.string())
      .default([])
      .describe(
        'Host names the console answers to besides loopback names and `host` (others get 421: the DNS-rebinding guard)',
      ),
    data_dir: z
      .string()
      .default('./data')
      .describe(
        'The SQLite file (default store), the secret key file and the console key file, relative to the config file',
      ),
    engine: engineSchema
      .default({ type: 'docker', socket: DEFAULT_DOCKER_SOCKET, init: true })
      .describe('Where jobs run: the local Docker Engine, a Docker Swarm, or a simulated engine'),
    job_defaults: jobDefaultsSchema
      .default({ memory: 512 * 1024 ** 2, cpus: 1, pids_limit: 512 })
      .describe('Limits every job container gets unless its definition sets its own'),
    reconcile_interval_seconds: z
      .number()
      .positive()
      .max(60)
      .default(2)
      .describe(
        'How often every unfinished job is compared with the engine, the engine pinged and the heartbeat beaten',
      ),
    instance_timeout_seconds: z
      .number()
      .positive()
      .default(15)
      .describe(
        'How long an instance sharing the store may stay silent before another takes over its jobs (at least 3 × the interval)',
      ),
    max_running: positiveInt
      .default(16)
      .describe('Containers at once on this service, across queues'),
    log_tail_bytes: positiveInt
      .default(64 * 1024)
      .describe("The most one logs answer returns of a running job's output (its newest bytes)"),
    job_output: z
      .strictObject({
        max_bytes_per_job: positiveInt
          .default(DEFAULT_KEPT_OUTPUT_BYTES)
          .describe(
            "Output kept of each ended job, its newest bytes (secrets replaced); the engine's own log cap follows it (4 ×, at least 8 MB per file)",
          ),
        max_bytes_per_project: positiveInt
          .default(256 * 1024 ** 2)
          .describe(
            "What a project's kept outputs may take in the store, compressed: past it, the outputs kept the longest ago are dropped first",
          ),
      })
      .refine((o) => o.max_bytes_per_project >= o.max_bytes_per_job, {
        message: 'max_bytes_per_project: must be at least max_bytes_per_job',
      })
      .default({
        max_bytes_per_job: DEFAULT_KEPT_OUTPUT_BYTES,
        max_bytes_per_project: 256 * 1024 ** 2,
      })
      .describe('How much of what jobs print is kept once they ended, compressed in the store'),
    retention: z
      .strictObject({
        keep_finished_jobs: keepPeriod
          .prefault(DEFAULT_KEEP_FINISHED)
          .describe(
            'How long a finished job (completed, failed, timeout, cancelled, error) is kept, with its history, attempts, output and labels: 14d, 12h, 30m, 90s, or forever',
          ),
        prune_every_seconds: positiveInt
          .max(86_400, 'must be at most a day (86400)')
          .default(60)
          .describe('How often each instance deletes the finished jobs past their time'),
        batch_size: positiveInt
          .max(10_000, 'must be at most 10000')
          .default(200)
          .describe(
            'Jobs deleted per transaction; submits are served between batches (an array counts its children)',
          ),
      })
      .prefault({
        keep_finished_jobs: DEFAULT_KEEP_FINISHED,
        prune_every_seconds: 60,
        batch_size: 200,
      })
      .describe(
        "How long finished jobs are kept: this is every project's default; a project's or a queue's keep_finished_jobs overrides it (docs/guides/retention.md)",
      ),
    audit: z
      .strictObject({
        keep_days: positiveInt
          .max(3650, 'must be at most 3650')
          .default(90)
          .describe('How long audit events are kept; older ones are deleted by the retention pass'),
      })
      .prefault({})
      .describe(
        'The audit trail: who submitted, cancelled and changed what, and from where (docs/guides/audit.md)',
      ),
    webhooks: z
      .strictObject({
        allowed_hosts: z
          .array(
            z
              .string()
              .regex(
                /^(\*\.)?[A-Za-z0-9.:[\]-]+$/,
                'must be a host name or address, or *.domain for its subdomains',
              ),
          )
          .default([])
          .describe(
            'The hosts webhooks may be sent to, at any address (a name, an address, or *.example.com); empty: any host whose address is public (not loopback, private, link-local, site- or unique-local, multicast, reserved, nor such an IPv4 address carried in an IPv6 one)',
          ),
        timeout_seconds: positiveInt
          .max(60, 'must be at most 60')
          .default(10)
          .describe('How long a receiver has to answer one request'),
        max_attempts: positiveInt
          .max(20, 'must be at most 20')
          .default(8)
          .describe('Attempts per delivery, the first included, before it is given up'),
        first_retry_seconds: z
          .number()
          .positive()
          .max(3600, 'must be at most 3600')
          .default(5)
          .describe(
            'The wait before the second attempt; each later wait is three times the one before, at most 6 h',
          ),
        keep_deliveries_days: positiveInt
          .max(365, 'must be at most 365')
          .default(7)
          .describe('How long ended deliveries stay in the delivery log'),
        replay_max_age_hours: z
          .number()
          .positive()
          .max(8760, 'must be at most 8760')
          .default(24)
          .describe(
            "State changes older than this when the service reads them (webhooks were off a while: extensions off, every instance stopped) are not sent; each webhook's delivery log counts them in one webhook.skipped record",
          ),
      })
      .prefault({})
      .describe(
        'Webhooks (an extension): where they may go, and how hard a delivery is tried (docs/guides/webhooks.md)',
      ),
    auth: z
      .strictObject({
        require_sign_in: z
          .boolean()
          .default(false)
          .describe(
            'Sign-in even for a console on loopback with no users and no identity provider (set it when a proxy on this machine makes the console reachable from elsewhere)',
          ),
        public_url: z
          .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
          .optional()
          .describe(
            "The console's address as browsers reach it, e.g. https://jobs.example.com: sessions' cookies are Secure when it is https, and OpenID Connect returns there",
          ),
        session_idle_minutes: positiveInt
          .max(60 * 24 * 30, 'must be at most 43200 (30 days)')
          .default(12 * 60)
          .describe('A session unused this long ends'),
        session_max_hours: positiveInt
          .max(24 * 90, 'must be at most 2160 (90 days)')
          .default(7 * 24)
          .describe('A session ends this long after sign-in, used or not'),
        sign_in_failures: positiveInt
          .max(100, 'must be at most 100')
          .default(5)
          .describe(
            'Failed password sign-ins per e-mail address in 15 minutes; then that address is refused for the rest of them',
          ),
        oidc: z
          .strictObject({
            issuer: z
              .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
              .describe(
                "The OpenID Provider's issuer URL (its /.well-known/openid-configuration is read)",
              ),
            client_id: z
              .string()
              .min(1, 'must not be empty')
              .describe('This client’s id at the provider'),
            client_secret_file: z
              .string()
              .optional()
              .describe(
                'A file holding the client secret; without it, the JOBDECK_OIDC_CLIENT_SECRET variable does (never the configuration file itself)',
              ),
            label: z
              .string()
              .min(1)
              .max(60)
              .default('single sign-on')
              .describe('The sign-in button says "Sign in with <label>"'),
            scopes: z
              .array(z.string().regex(/^[\x21-\x7e]+$/, 'must be a scope name'))
              .default(['openid', 'email', 'profile'])
              .describe(
                'Scopes asked for; add the one your provider needs for groups (often groups)',
              ),
            groups_claim: z
              .string()
              .default('groups')
              .describe('The claim that lists the user’s groups'),
            group_roles: z
              .record(
                z.string(),
                z.array(z.strictObject({ project: z.string(), role: z.enum(ROLES) })),
              )
              .default({})
              .describe(
                'Roles a group gives, e.g. { jobdeck-admins: [{ project: demo, role: admin }] }; read at each sign-in, beside the project’s members',
              ),
            allow_insecure_issuer: z
              .boolean()
              .default(false)
              .describe('An http:// issuer on loopback, for trials and tests; never another one'),
          })
          .optional()
          .describe(
            'Sign-in through an OpenID Connect provider (authorization code flow with PKCE)',
          ),
      })
      .prefault({})
      .describe("The console's sign-in (docs/deploy.md, A team's console)"),
    body_limit_bytes: positiveInt
      .default(DEFAULT_BODY_LIMIT_BYTES)
      .describe('Request body limit (413 past it)'),
    rate_limit_per_minute: z
      .number()
      .int()
      .min(0)
      .default(1200)
      .describe('Requests per minute per API key; 0 turns the limit off'),
    auth_failures_per_minute: z
      .number()
      .int()
      .min(0)
      .default(30)
      .describe(
        'Failed authentications per minute per client address before 429; 0 turns the limit off',
      ),
    trusted_proxies: z
      .array(z.string().refine(isAddressOrNetwork, 'must be an IP address or a CIDR network'))
      .default([])
      .describe(
        "Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs, e.g. 127.0.0.1 or 10.0.0.0/8): the client's address is the first one from the right that is not listed; empty: every client is the address it connects from",
      ),
    http_timeouts: z
      .strictObject({
        headers_seconds: positiveInt
          .default(10)
          .describe('For the request line and headers (408 past it)'),
        request_seconds: positiveInt
          .default(30)
          .describe('For the whole request, body included (408 past it)'),
        keep_alive_seconds: positiveInt
          .default(5)
          .describe('An idle keep-alive connection is closed after this'),
      })
      .refine((t) => t.headers_seconds <= t.request_seconds, {
        message: 'headers_seconds: must not exceed request_seconds',
      })
      .default({ headers_seconds: 10, request_seconds: 30, keep_alive_seconds: 5 })
      .describe(
        'How long a client may take: a slow or stalled one is cut, so it cannot hold a connection',
      ),
    extensions: z
      .boolean()
      .default(true)
      .describe(
        "Jobdeck's extensions under /v1/client and the OpenAPI document; false leaves the spec's three operations only",
      ),
    events: z
      .strictObject({
        streams_per_key: positiveInt
          .default(4)
          .describe('Streams one API key may hold open at once on one instance; more get a 429'),
        heartbeat_seconds: positiveInt
          .default(15)
          .describe('A comment line this often, so that proxies keep an idle stream open'),
      })
      .default({ streams_per_key: 4, heartbeat_seconds: 15 })
      .describe('The event stream extension'),
    metrics: z
      .strictObject({
        on_api_port: z
          .boolean()
          .default(false)
          .describe(
            '/metrics on the API port, beside the API (it takes no key and names projects and queues)',
          ),
        port: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .optional()
          .describe('A listener of its own for /metrics, on metrics.host (0: any free port)'),
        host: z
          .string()
          .default('127.0.0.1')
          .describe(
            'Where metrics.port listens: loopback unless Prometheus scrapes from elsewhere',
          ),
      })
      .default({ on_api_port: false, host: '127.0.0.1' })
      .describe(
        'Prometheus metrics: off unless asked for, on the API port or on a port of their own',
      ),
    secret_key: secretKey
      .optional()
      .describe(
        'Base64 of 32 bytes for AES-256-GCM; without it a 0600 key file in data_dir is generated',
      ),
    retired_secret_keys: z
      .array(secretKey)
      .default([])
      .describe(
        'Earlier secret keys (base64): they open what they sealed, never seal (see rotation)',
      ),
    container_labels: z
      .record(z.string(), z.string())
      .default({})
      .describe("Extra labels on every job container (ownership, cost); Jobdeck's own labels win"),
    log_level: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('The log level; debug adds a line per request'),
    projects: z
      .record(identifier, projectSchema)
      .describe('Projects by code: each has its queues and definitions, and its own API keys'),
    store: storeSchema
      .default({ type: 'sqlite', path: 'jobdeck.sqlite' })
      .describe('Where jobs are stored: the embedded SQLite file, or PostgreSQL'),
  })
  .refine((config) => config.instance_timeout_seconds >= 3 * config.reconcile_interval_seconds, {
    path: ['instance_timeout_seconds'],
    message:
      'must be at least 3 × reconcile_interval_seconds (an instance beats once per interval; fewer beats would make live instances look lost)',
  })
  .superRefine((config, context) => {
    const { oidc, public_url } = config.auth;
    if (oidc && !public_url) {
      context.addIssue({
        code: 'custom',
        path: ['auth', 'public_url'],
        message:
          'must be set with auth.oidc: the provider sends the browser back to <public_url>/v1/auth/oidc/callback',
      });
    }
    for (const [group, grants] of Object.entries(oidc?.group_roles ?? {})) {
      grants.forEach(({ project }, index) => {
        if (config.projects[project]) return;
        context.addIssue({
          code: 'custom',
          path: ['auth', 'oidc', 'group_roles', group, index, 'project'],
          message: `no project "${project}" in the configuration`,
        });
      });
    }
    for (const [code, project] of Object.entries(config.projects)) {
      for (const [name, schedule] of Object.entries(project.schedules)) {
        for (const field of ['job_definition', 'job_queue'] as const) {
          if (!schedule[field].startsWith(`${code}::`)) {
            context.addIssue({
              code: 'custom',
              path: ['projects', code, 'schedules', name, field],
              message: `must be of project "${code}" (start with ${code}::)`,
            });
          }
        }
      }
    }
  });

export type JobdeckConfig = z.infer<typeof configSchema>;
export type EngineConfig = z.infer<typeof engineSchema>;
