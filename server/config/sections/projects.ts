import { Cron } from 'croner';
import { z } from 'zod';
import {
  DEFINITION_REF,
  PLACEMENT_POLICIES,
  QUEUE_REF,
  SCHEDULE_MISSED,
  SCHEDULE_OVERLAPS,
  labelsSchema,
  retryStrategySchema,
} from '../../../contract';
import { identifier, keepPeriod, memorySize, placementConstraint, positiveInt } from './fields';

const resourceAmounts = {
  cpus: z.number().positive('must be positive').optional().describe('CPUs, as 0.5 or 2'),
  memory: memorySize.optional().describe('Memory, as 512m or 4g'),
  gpus: z.number().int().min(0, 'must be 0 or more').optional().describe('GPUs, a whole number'),
};

/** What each job asks for to be placed; a submission may ask otherwise up to `max`. */
const resourcesSection = z
  .strictObject({
    ...resourceAmounts,
    max: z
      .strictObject(resourceAmounts)
      .optional()
      .describe("The most a submission's `resources` may ask for (default: the request here)"),
  })
  .superRefine((r, context) => {
    for (const key of ['cpus', 'memory', 'gpus'] as const) {
      const [request, max] = [r[key], r.max?.[key]];
      if (request !== undefined && max !== undefined && max < request) {
        context.addIssue({
          code: 'custom',
          path: ['max', key],
          message: `must be at least ${key}`,
        });
      }
    }
  })
  .optional()
  .describe(
    "What each job asks for to be placed (`cpus`, `memory`, `gpus`; default: its limits, and no GPU); the container's limits are raised to it",
  );

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
    resources: resourcesSection,
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
        'How its jobs are tried again: `attempts` (1–10), `backoff`, `on_exit` rules and `out_of_memory` (docs/guides/retries.md); a submission may replace it',
      ),
  })
  .describe('One version of the definition: what a job of it runs');

const shareWeight = z
  .number()
  .positive('must be positive')
  .max(1000, 'must be at most 1000')
  .default(1);

const quotaAmounts = {
  cpus: z.number().min(0, 'must be 0 or more').optional().describe('CPUs, as 0.5 or 8'),
  memory: memorySize.optional().describe('Memory, as 512m or 16g'),
  gpus: z.number().int().min(0, 'must be 0 or more').optional().describe('GPUs, a whole number'),
  jobs: z.number().int().min(0, 'must be 0 or more').optional().describe('Jobs holding a slot'),
};
const QUOTA_KEYS = ['cpus', 'memory', 'gpus', 'jobs'] as const;

/** A nominal quota with what may be borrowed beyond it and lent from it (docs/guides/quotas.md). */
const quotaSchema = z
  .strictObject({
    ...quotaAmounts,
    borrowing_limit: z
      .strictObject(quotaAmounts)
      .optional()
      .describe(
        'The most it may use beyond its quota, of what the others leave unused (default: all that is unused); 0: it never borrows',
      ),
    lending_limit: z
      .strictObject(quotaAmounts)
      .optional()
      .describe(
        'The most of its unused quota the others may borrow (default: all of it); 0: it never lends',
      ),
    reclaim: z
      .enum(['wait', 'preempt'], { error: 'must be wait or preempt' })
      .default('wait')
      .describe(
        "How it takes back what it lent once its own jobs wait (Kueue's reclaimWithinCohort): wait for the borrowed jobs to end, or preempt the fewest, youngest of them (stopped with their grace, then run again)",
      ),
  })
  // A limit counts only beside a quota in that dimension: one without it would be ignored.
  .superRefine((quota, context) => {
    for (const limit of ['borrowing_limit', 'lending_limit'] as const) {
      for (const key of QUOTA_KEYS) {
        if (quota[limit]?.[key] !== undefined && quota[key] === undefined) {
          context.addIssue({
            code: 'custom',
            path: [limit, key],
            message: `needs a quota of ${key} beside it`,
          });
        }
      }
    }
  })
  .optional();

const queueSchema = z
  .strictObject({
    max_running: positiveInt.default(4).describe("The queue's jobs holding a slot at once"),
    priority: z
      .number()
      .int()
      .default(0)
      .describe(
        'Higher queues of the project get free slots first; between projects, fair share decides (docs/guides/fair-share.md)',
      ),
    weight: shareWeight.describe(
      "The queue's weight in its project's share: queues of equal priority share the project's room in proportion to their weights",
    ),
    quota: quotaSchema.describe(
      "What the queue's jobs may hold at once of its project's room (`cpus`, `memory`, `gpus`, `jobs`), borrowing from and lending to the project's other queues (docs/guides/quotas.md); default: none",
    ),
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
    partition: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'must be a partition name (letters, digits, ".", "_", "-")')
      .optional()
      .describe(
        "The Slurm partition the queue's jobs are submitted to (engine.type slurm); without it, engine.partition's",
      ),
    placement: z
      .enum(PLACEMENT_POLICIES, 'must be binpack or spread')
      .default('binpack')
      .describe(
        'Where its jobs start among the hosts with room: binpack, the fullest (room kept whole for big jobs); spread, the emptiest',
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

export const projectSchema = z
  .strictObject({
    weight: shareWeight.describe(
      "The project's weight: busy projects share the capacity in proportion to their weights (docs/guides/fair-share.md)",
    ),
    quota: quotaSchema.describe(
      "What the project's jobs may hold at once (`cpus`, `memory`, `gpus`, `jobs`), borrowing from and lending to the other projects (docs/guides/quotas.md); default: none",
    ),
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
    exec: z
      .boolean()
      .default(false)
      .describe(
        "Whether operators may run commands in the project's running jobs (`jobdeck exec`, the WebSocket of docs/guides/exec.md)",
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
