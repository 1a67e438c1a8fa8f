import { z } from 'zod';
import {
  CURSOR_MESSAGE,
  IDENTIFIER_MESSAGES,
  LIST_CURSOR_TOKEN,
  POSITION_TOKEN,
  QUEUE_REF,
} from './identifiers';
import { labelSelectorsSchema } from './labels';
import { attemptUsageSchema } from './usage';
import { resourcesSchema } from './resources';
import { DEFAULT_LIMITS } from './limits';
import { jobStateSchema } from './states';
import { plainText } from './text';

const NAME_MAX_LENGTH = DEFAULT_LIMITS.nameMaxLength;

const timestamp = z.iso.datetime({ offset: true });

/** Job Detail's record: exactly the spec's seven fields. */
export const jobRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: jobStateSchema,
  system_note: z.string().nullable(),
  schedule_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp.nullable(),
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

export const submitJobResultSchema = z.object({ id: z.string() });

/**
 * Extension: one row of the job list (and of the event stream), the record plus where the job
 * runs and how it went, for a table's columns.
 */
export const jobListItemSchema = jobRecordSchema.extend({
  job_queue: z.string(),
  job_definition: z.string(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  exit_code: z.number().int().nullable(),
  /** Its labels, when it has any. */
  labels: z.record(z.string(), z.string()).optional(),
});
export type JobListItem = z.infer<typeof jobListItemSchema>;

/** The list counts matching jobs up to this many; past it, `total_exact` is false. */
export const MAX_COUNTED_JOBS = 10_000;

export const jobListSchema = z.object({
  items: z.array(jobListItemSchema),
  next_cursor: z.string().nullable(),
  total: z
    .number()
    .int()
    .describe(
      `How many jobs match the filters, every page together (counted up to ${MAX_COUNTED_JOBS})`,
    ),
  total_exact: z
    .boolean()
    .describe(`False when more than ${MAX_COUNTED_JOBS} match: \`total\` is then a lower bound`),
});
export type JobList = z.infer<typeof jobListSchema>;

/**
 * A list's cursor. Its pattern is only its shape: the service also refuses a token of that shape
 * it did not give this project for this list, which the description says.
 */
export const issuedCursorSchema = z.string().regex(POSITION_TOKEN, CURSOR_MESSAGE).meta({
  description:
    'The next_cursor of an earlier page, as given: any other token, even of this shape, is a 400',
});

/** The job list's cursor: a sorted list's is longer (it holds the last job's sort key). */
const listCursorSchema = z.string().regex(LIST_CURSOR_TOKEN, CURSOR_MESSAGE).meta({
  description:
    'The next_cursor of an earlier page of the same filters and sort, as given: any other token, even of this shape, is a 400',
});

/** One value or several (`?state=running&state=runnable`, or `?state=running,runnable`). */
const oneOrMany = <T extends z.ZodType>(item: T, max = Infinity) =>
  z.preprocess(
    (value) =>
      [value]
        .flat()
        .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
        .filter((v) => v !== ''),
    max === Infinity
      ? z.array(item).min(1)
      : z.array(item).min(1).max(max, `must name at most ${max}`),
  );

/** How many jobs a filter may name by id: a failure group's (failures.ts) at most. */
export const MAX_FILTER_IDS = 200;
const JOB_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The end of a job id: its random part (ids are UUIDv7), at least 6 digits to narrow it down. */
const ID_SUFFIX = /^[0-9a-fA-F]{6,12}$/;

/** The fields the list sorts on (docs/api.md): duration is ended − started. */
export const LIST_SORT_FIELDS = [
  'state',
  'created_at',
  'started_at',
  'ended_at',
  'duration',
] as const;
export type ListSortField = (typeof LIST_SORT_FIELDS)[number];

/** A field ascending, or descending with a leading `-`. */
export const listSortSchema = z
  .enum([...LIST_SORT_FIELDS, ...LIST_SORT_FIELDS.map((field) => `-${field}` as const)], {
    error: `must be one of ${LIST_SORT_FIELDS.join(', ')}, each ascending or with a leading - for descending`,
  })
  .meta({
    description:
      'The order of every matching job (default: newest first): state (lifecycle order), created_at, started_at, ended_at or duration (ended − started), ascending or with a leading - descending; jobs without the value last, ties by their order of creation in the same direction',
  });
export type ListSort = z.infer<typeof listSortSchema>;

export const jobListQuerySchema = z.strictObject({
  state: oneOrMany(jobStateSchema).optional(),
  /** A queue as Job Submit's `job_queue` names one. */
  queue: z.string().regex(QUEUE_REF, IDENTIFIER_MESSAGES.queueRef).optional(),
  /** Jobs whose name starts with this: text as a name may hold, and no longer. */
  name: plainText(
    z.string().max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
  ).optional(),
  /** Jobs whose id ends with these hex digits: the console's short id (docs/console.md). */
  id_suffix: z
    .string()
    .regex(ID_SUFFIX, 'must be 6 to 12 hex digits, the end of a job id')
    .optional()
    .meta({
      description:
        'Jobs whose id ends with these 6 to 12 hex digits, in either case: a short id. Several may match',
    }),
  id: oneOrMany(z.string().regex(JOB_ID, 'must be a job id (a UUID)'), MAX_FILTER_IDS)
    .optional()
    .meta({
      description: `These jobs (at most ${MAX_FILTER_IDS} ids, repeated or comma-separated): a failure group's jobs`,
    }),
  created_after: timestamp.optional(),
  created_before: timestamp.optional(),
  ended_after: timestamp
    .optional()
    .meta({ description: 'Jobs that ended (reached a final state) after this time' }),
  ended_before: timestamp.optional().meta({ description: 'Jobs that ended before this time' }),
  sort: listSortSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: listCursorSchema.optional(),
  /** Jobs with every one of these labels: `key=value`, or `key` for any value. */
  label: labelSelectorsSchema.optional().meta({
    description:
      'Jobs with every one of these labels: key=value, or key for any value; repeated for several',
  }),
});
export type JobListQuery = z.input<typeof jobListQuerySchema>;

/** Extension: the job's state history as the service recorded it. */
export const jobTransitionSchema = z.object({
  from: jobStateSchema.nullable(),
  to: jobStateSchema,
  at: timestamp,
  note: z.string().nullable(),
});
export const jobTransitionsSchema = z.object({ items: z.array(jobTransitionSchema) });
export type JobTransition = z.infer<typeof jobTransitionSchema>;

/**
 * An instant of a log line at full precision: RFC 3339 with up to nine fractional digits and any
 * offset (`2026-11-21T10:00:00.123456789Z`). next_since is one of these. Each part within its
 * range, so that the document's pattern is the whole check (a day past its month's end rolls
 * over, as Date.parse reads it).
 */
export const LOG_INSTANT =
  /^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d)(?:\.(\d{1,9}))?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

export const jobLogsQuerySchema = z.strictObject({
  /** Only lines after this instant: next_since of an earlier answer, or any RFC 3339 time. */
  since: z
    .string()
    .regex(LOG_INSTANT, 'must be an RFC 3339 time, such as next_since of an earlier answer')
    .optional(),
});
export type JobLogsQuery = z.input<typeof jobLogsQuerySchema>;

/** One line of the container's output, as the engine recorded it. */
export const logLineSchema = z.object({
  stream: z.enum(['stdout', 'stderr']),
  /** When the engine read the line, to the millisecond (next_since keeps the full precision). */
  at: timestamp,
  /** The line without its newline; sensitive values replaced by `[NAME redacted]`. */
  text: z.string(),
});
export type LogLine = z.infer<typeof logLineSchema>;

/** A count of what was kept of an ended job's output, given only when some of it was cut. */
const keptCount = z.number().int().nonnegative().optional();

/**
 * Extension: the container's output: while the job runs, at most its last log_tail_bytes
 * (after `since`, when given) read from the engine; once it has ended, all that was kept of it
 * (the newest job_output.max_bytes_per_job).
 */
export const jobLogsSchema = z.object({
  /**
   * The lines' text as printed, each with its newline. Jobs that ended before lines were kept
   * with their stream and time have their stored output here and no lines.
   */
  text: z.string(),
  /** Whether earlier output (after `since`, when given) was left out. */
  truncated: z.boolean(),
  /** Oldest first by time; stdout and stderr interleaved by the times the engine stamped. */
  lines: z.array(logLineSchema),
  /**
   * Send it back as `since` to get only newer lines. Null once the job has ended and every line
   * kept is in this answer: nothing more will come.
   */
  next_since: z.string().nullable(),
  /**
   * Only for an ended job whose output was cut (`truncated`), and of its whole output whatever
   * `since`: the lines and bytes kept, of those printed. Lines as the engine records them (a
   * line over 16 KiB counts once per piece); bytes as kept, secrets replaced.
   */
  kept_lines: keptCount.describe('Lines kept of an ended job whose output was cut'),
  total_lines: keptCount.describe('Lines it printed (that the engine still held)'),
  kept_bytes: keptCount.describe('Bytes kept of its output'),
  total_bytes: keptCount.describe('Bytes it printed (that the engine still held)'),
});
export type JobLogs = z.infer<typeof jobLogsSchema>;

/** Extension: what actually ran, and where. */
export const jobExecutionSchema = z.object({
  job_definition: z.string(),
  job_queue: z.string(),
  image: z.string(),
  /** The command as run: `Param::` words substituted. */
  command: z.array(z.string()),
  /** Every variable the container got; a sensitive one's value is never shown (null). */
  env: z.array(
    z.object({ name: z.string(), sensitive: z.boolean(), value: z.string().nullable() }),
  ),
  limits: z.object({
    cpus: z.number(),
    memory_bytes: z.number().int(),
    timeout_seconds: z.number().int(),
  }),
  exit_code: z.number().int().nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  /** finished_at − started_at, or the time so far while it runs; null before it started. */
  duration_ms: z.number().int().nullable(),
  /** Where it ran: the engine's kind, the Jobdeck instance that ran it, the node when known. */
  engine: z.string(),
  instance: z.string().nullable(),
  node: z.string().nullable(),
  resources: resourcesSchema.optional().meta({
    description:
      'What it asked for to be placed (docs/guides/hosts.md); absent for a job submitted before requests were kept',
  }),
  host: z.string().nullable().optional().meta({
    description:
      'The host Jobdeck placed it on (the id of List Hosts); null until placed, or where the engine reports no hosts',
  }),
  /** With retries (docs/guides/retries.md): the attempt it is on, of how many at most. */
  attempt: z.number().int().optional(),
  attempts_max: z.number().int().optional(),
  usage: attemptUsageSchema.optional().meta({
    description:
      'What its current (or last) attempt used, sampled from the engine; absent when nothing was reported (yet)',
  }),
  /** Its labels, as submitted ({} when none). */
  labels: z.record(z.string(), z.string()).optional(),
  submitted_by: z.string().nullable().optional().meta({
    description:
      'Who submitted it: `key:<id>`, `user:<identity>` or `schedule:<ref>`; null for a job submitted before this was kept',
  }),
  cancel_requested_by: z.string().nullable().optional().meta({
    description: 'Who asked for its cancel; null when nobody did (or before this was kept)',
  }),
  cancel_requested_at: timestamp
    .nullable()
    .optional()
    .meta({ description: 'When its cancel was asked for; null when it was not' }),
  start_estimate: z
    .object({
      in_ms: z.number().int().meta({ description: 'Estimated time to its start, from now' }),
      place: z
        .number()
        .int()
        .meta({ description: "Its place among its queue's waiting jobs (1: next)" }),
      slots: z.number().int().meta({ description: 'Slots it may start in (max_running)' }),
      run_p50_ms: z
        .number()
        .int()
        .meta({ description: 'The median recent run time it is made from' }),
      runs: z.number().int().meta({ description: 'How many recent runs that median is of' }),
    })
    .nullable()
    .optional()
    .meta({
      description:
        "An estimate of when a job waiting for a slot starts, from the queue's run times of the current and the previous UTC hour; null when it waits for something else or fewer than 3 jobs ran",
    }),
});
export type JobExecution = z.infer<typeof jobExecutionSchema>;
