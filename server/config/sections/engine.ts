import { z } from 'zod';
import { memorySize, placementConstraint, positiveInt } from './fields';

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';

const init = z
  .boolean()
  .default(true)
  .describe('A tiny init as PID 1 forwards SIGTERM to the job, so a grace period means something');

/** What of each machine is kept for everything else, where the engine reads its size. */
const reserveOf = (machine: string) => ({
  reserve_cpus: z
    .number()
    .min(0, 'must be 0 or more')
    .default(0)
    .describe(`CPUs of ${machine} kept for everything else (the engine's own, Jobdeck's)`),
  reserve_memory: memorySize
    .optional()
    .describe(`Memory of ${machine} kept for everything else, as 1g (default none)`),
});

/** The local Docker Engine, the default. */
const dockerEngineSchema = z.strictObject({
  type: z.literal('docker').describe('The local Docker Engine'),
  socket: z.string().default(DEFAULT_DOCKER_SOCKET).describe("The engine's unix socket"),
  init,
  capacity: z
    .strictObject({
      cpus: z
        .number()
        .positive('must be positive')
        .optional()
        .describe(
          "CPUs Jobdeck's jobs may ask for in all (default: the machine's, less `reserve`)",
        ),
      memory: memorySize
        .optional()
        .describe(
          "Memory Jobdeck's jobs may ask for in all, as 16g (default: the machine's, less `reserve`)",
        ),
      ...reserveOf('the machine'),
    })
    .prefault({})
    .describe(
      "What the machine offers Jobdeck's jobs: a job starts only while what it asks for fits beside the others' (docs/guides/hosts.md)",
    ),
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
    capacity: z
      .strictObject(reserveOf('each node'))
      .prefault({})
      .describe(
        "What each node offers Jobdeck's jobs: its CPUs and memory as the swarm reports them, less this; a job starts on a node only while what it asks for fits beside the others' (docs/guides/hosts.md)",
      ),
  })
  .refine((engine) => !(engine.socket && engine.host), {
    message: "give the manager's socket or its host, not both",
    path: ['host'],
  });

/** A Slurm cluster, through its client commands (docs/slurm.md). */
const slurmEngineSchema = z.strictObject({
  type: z
    .literal('slurm')
    .describe(
      'A Slurm cluster: each job is a batch job that runs its image with Docker on its node',
    ),
  conf: z
    .string()
    .optional()
    .describe(
      "The slurm.conf the client commands read (their SLURM_CONF); without it, the system's",
    ),
  work_dir: z
    .string()
    .regex(/^\//, 'must be an absolute path')
    .describe(
      "Where each job's script, environment file, output and exit status go: a directory Jobdeck and every node share",
    ),
  partition: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, 'must be a partition name (letters, digits, ".", "_", "-")')
    .optional()
    .describe("The partition every job is submitted to; without it, the cluster's default"),
  init,
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
  hosts: z
    .array(
      z.strictObject({
        name: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be letters, digits, ".", "_" or "-"')
          .describe('The hosts are named name-1, name-2, …'),
        count: positiveInt.max(10_000, 'must be at most 10000').default(1),
        cpus: z.number().positive('must be positive'),
        memory: memorySize.describe('As 16g'),
        gpus: z.number().int().min(0, 'must be 0 or more').default(0),
      }),
    )
    .optional()
    .describe(
      'Nodes of several sizes, in place of `nodes`: jobs are placed by what they ask for (docs/guides/hosts.md); without it, by slots alone',
    ),
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
    .prefault({})
    .describe('Faults on a timer (none by default)'),
});

const engineSchema = z.discriminatedUnion(
  'type',
  [dockerEngineSchema, swarmEngineSchema, slurmEngineSchema, simulatedEngineSchema],
  { error: 'must be docker, swarm, slurm or simulated' },
);

export const engineSection = engineSchema
  .prefault({ type: 'docker' })
  .describe(
    'Where jobs run: the local Docker Engine, a Docker Swarm, a Slurm cluster, or a simulated engine',
  );

export type EngineConfig = z.infer<typeof engineSchema>;
