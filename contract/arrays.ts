import { z } from 'zod';
import { jobStateSchema, type JobState } from './states';

/**
 * Extension: an array job, one submit that makes a parent and `size` children. Each child runs
 * the parent's container with JOBDECK_ARRAY_INDEX (0…size−1) and JOBDECK_ARRAY_SIZE set; the
 * parent runs nothing and its state sums up its children's.
 */
export const ARRAY_LIMITS = {
  minSize: 2,
  maxSize: 10_000,
  pageMax: 1000,
  pageDefault: 200,
} as const;

/** The variables a child gets, beside the parent's own. */
export const ARRAY_INDEX_VARIABLE = 'JOBDECK_ARRAY_INDEX';
export const ARRAY_SIZE_VARIABLE = 'JOBDECK_ARRAY_SIZE';

export const arraySchema = z
  .strictObject(
    {
      size: z
        .number({
          error: (issue) =>
            issue.input === undefined
              ? 'is required: how many children, a whole number'
              : 'must be a number: how many children, a whole number',
        })
        .int('must be a whole number')
        .min(ARRAY_LIMITS.minSize, `must be at least ${ARRAY_LIMITS.minSize}`)
        .max(ARRAY_LIMITS.maxSize, `must be at most ${ARRAY_LIMITS.maxSize}`),
      indexes: z
        .array(z.number().int('must be a whole number').min(0, 'must be 0 or more'), {
          error: 'must be an array of indexes, like [3, 7]',
        })
        .min(1, 'must list at least one index')
        .max(ARRAY_LIMITS.maxSize, `must list at most ${ARRAY_LIMITS.maxSize} indexes`)
        .optional()
        .meta({
          uniqueItems: true,
          description: `Extension: run only these of 0…size−1, each below size and listed once (a failed array's indexes again): one child each, with that ${ARRAY_INDEX_VARIABLE} and ${ARRAY_SIZE_VARIABLE}=size, as in the array they come from`,
        }),
    },
    { error: 'must be an object like { "size": 100 }' },
  )
  // Rules across the fields, said in indexes' description (JSON Schema cannot): the first broken
  // one alone, as ten thousand of them would make no message worth reading.
  .superRefine(({ size, indexes }, context) => {
    const seen = new Set<number>();
    for (const [at, index] of (indexes ?? []).entries()) {
      const message =
        index >= size
          ? `must be below array.size (${size})`
          : seen.has(index)
            ? `${index} is listed twice`
            : undefined;
      if (message) return context.addIssue({ code: 'custom', path: ['indexes', at], message });
      seen.add(index);
    }
  })
  .meta({
    description: `Extension: run the job as ${ARRAY_LIMITS.minSize}–${ARRAY_LIMITS.maxSize} children, each with ${ARRAY_INDEX_VARIABLE} (0…size−1) and ${ARRAY_SIZE_VARIABLE}; the id answered is the parent's, whose state sums up the children's`,
  });
export type ArraySpec = z.infer<typeof arraySchema>;

/** Extension: `/job/{id}/array`'s query: children by state, a page at a time, by index. */
export const arrayChildrenQuerySchema = z.strictObject({
  state: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.split(',').filter((v) => v !== '') : value),
      z.array(jobStateSchema).min(1),
    )
    .optional(),
  limit: z.coerce.number().int().min(1).max(ARRAY_LIMITS.pageMax).default(ARRAY_LIMITS.pageDefault),
  cursor: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a next_cursor value from an earlier page')
    .optional(),
});
export type ArrayChildrenQuery = z.input<typeof arrayChildrenQuerySchema>;

const timestamp = z.iso.datetime({ offset: true });

export const arrayChildSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  name: z.string(),
  state: jobStateSchema,
  system_note: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
});
export type ArrayChild = z.infer<typeof arrayChildSchema>;

export const arrayAnswerSchema = z.object({
  size: z
    .number()
    .int()
    .nullable()
    .meta({
      description: `For a parent: its size, its children's ${ARRAY_SIZE_VARIABLE} (how many children it has, unless \`indexes\` names them); null for any other job`,
    }),
  indexes: z.array(z.number().int()).optional().meta({
    description: `For a parent submitted with array.indexes: those indexes, ascending, one child each; absent otherwise`,
  }),
  parent_id: z
    .string()
    .nullable()
    .meta({ description: "For a child: its parent's id; null for any other job" }),
  index: z.number().int().nullable().meta({ description: 'For a child: its index' }),
  counts: z.partialRecord(jobStateSchema, z.number().int()).meta({
    description:
      'For a parent: its children counted by state (states with none left out); {} otherwise',
  }),
  items: z.array(arrayChildSchema).meta({
    description: 'For a parent: its children in the states asked for, by index, a page at a time',
  }),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Send it back as `cursor` for the next page; null on the last' }),
});
export type ArrayAnswer = z.infer<typeof arrayAnswerSchema>;

/**
 * The order an array's children are counted in wherever they are shown: those ended first
 * (`completed` leads, as the parent's note says "N of size completed"), then those under way, then
 * those waiting.
 */
const CHILD_COUNT_ORDER: readonly JobState[] = [
  'completed',
  'failed',
  'timeout',
  'error',
  'cancelled',
  'cancelling',
  'running',
  'starting',
  'runnable',
  'pending',
  'submitted',
];

/**
 * An array's children counted by state as both the parent's system_note and the console's chips
 * show them: one count, state by state, so the two cannot disagree. In CHILD_COUNT_ORDER; states
 * with no child are left out unless `kept` (a filter the console must be able to switch off).
 */
export function childCounts(
  counts: Partial<Record<JobState, number>>,
  kept: readonly JobState[] = [],
): [JobState, number][] {
  return CHILD_COUNT_ORDER.flatMap((state): [JobState, number][] => {
    const n = counts[state] ?? 0;
    return n > 0 || kept.includes(state) ? [[state, n]] : [];
  });
}
