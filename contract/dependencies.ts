import { z } from 'zod';
import { isFinalState, jobStateSchema, type JobState } from './states';

/**
 * Extension: a job that starts only once other jobs have ended. Each dependency names a job of
 * the same project that exists when this one is submitted, so no cycle can ever form; what the
 * other job's end must be is the dependency's type.
 */
export const DEPENDENCY_TYPES = ['afterok', 'afterany', 'afternotok'] as const;
export type DependencyType = (typeof DEPENDENCY_TYPES)[number];

/**
 * For array jobs, what each child waits for: `n_to_n`, child i of the array named (of the same
 * size) to complete; `sequential`, the child before it in its own array to complete (no job_id).
 */
export const ARRAY_DEPENDENCY_TYPES = ['n_to_n', 'sequential'] as const;
export type ArrayDependencyType = (typeof ARRAY_DEPENDENCY_TYPES)[number];
const SUBMITTED_TYPES = [...DEPENDENCY_TYPES, ...ARRAY_DEPENDENCY_TYPES] as const;

export const DEPENDENCY_LIMITS = { perJob: 20, dependentsShown: 200 } as const;

export const isJobDependencyType = (type: string): type is DependencyType =>
  (DEPENDENCY_TYPES as readonly string[]).includes(type);

/** What each type waits for, in words (notes, docs and the console say the same). */
export const DEPENDENCY_TYPE_WORDS: Record<DependencyType, string> = {
  afterok: 'to complete',
  afterany: 'to end',
  afternotok: 'to end unsuccessfully',
};

// No `i` flag: zod-to-openapi writes a regex's flags into the document's pattern, which then
// matches nothing.
const JOB_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const dependencySchema = z
  .strictObject(
    {
      job_id: z
        .string({ error: 'must be a string: the id of a job of this project' })
        .regex(JOB_ID, 'must be a job id (a UUID, as Job Submit answers it)')
        .optional(),
      type: z
        .enum(SUBMITTED_TYPES, {
          error: `must be one of ${SUBMITTED_TYPES.join(', ')}`,
        })
        .optional()
        .describe(
          'afterok (default): start once it completed; afterany: once it ended in any way; afternotok: once it ended failed, timeout, error or cancelled; for array jobs, n_to_n: each child once the same child of the array named completed; sequential (no job_id): each child once the one before it completed',
        ),
    },
    { error: 'must be an object like { "job_id": "…", "type": "afterok" }' },
  )
  .superRefine((dependency, context) => {
    if (dependency.type === 'sequential' && dependency.job_id !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['job_id'],
        message: 'must be left out for sequential (each child waits for the one before it)',
      });
    }
    if (dependency.type !== 'sequential' && dependency.job_id === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['job_id'],
        message: 'is required: the id of a job of this project',
      });
    }
  });
export type Dependency = z.input<typeof dependencySchema>;

export const dependsOnSchema = z
  .array(dependencySchema, { error: 'must be an array of { job_id, type }' })
  .min(1, 'must name at least one job (leave the field out for none)')
  .max(DEPENDENCY_LIMITS.perJob, `must have at most ${DEPENDENCY_LIMITS.perJob} dependencies`)
  .refine((list) => {
    const named = list.flatMap((d) => (d.job_id === undefined ? [] : [d.job_id.toLowerCase()]));
    return new Set(named).size === named.length;
  }, 'must name each job once')
  .refine(
    (list) => list.filter((d) => d.type === 'sequential').length <= 1,
    'must hold sequential at most once',
  )
  .meta({
    description: `Extension: jobs this one waits for (at most ${DEPENDENCY_LIMITS.perJob}, each job once); it stays pending until each has ended as its type asks, and is cancelled with a note when one cannot any more`,
    uniqueItems: true,
  });

/** Whether a dependency holds now, may still hold, or never can. */
export const DEPENDENCY_STATUSES = ['met', 'waiting', 'unmeetable'] as const;
export type DependencyStatus = (typeof DEPENDENCY_STATUSES)[number];

/** Extension: one job of a dependency, with its state as of the answer. */
export const dependencyEdgeSchema = z.object({
  job_id: z.string(),
  name: z.string(),
  type: z.enum(DEPENDENCY_TYPES),
  state: jobStateSchema,
  status: z.enum(DEPENDENCY_STATUSES).meta({
    description:
      'met: that job ended as the type asks; waiting: not yet ended; unmeetable: it ended otherwise',
  }),
});
export type DependencyEdge = z.infer<typeof dependencyEdgeSchema>;

export const dependenciesAnswerSchema = z.object({
  depends_on: z
    .array(dependencyEdgeSchema)
    .meta({ description: 'The jobs this one waits for, as submitted' }),
  dependents: z.array(dependencyEdgeSchema).meta({
    description: `Jobs that wait for this one, oldest first (the first ${DEPENDENCY_LIMITS.dependentsShown}); status is that of their dependency on this job`,
  }),
  dependents_total: z.number().int().meta({ description: 'How many jobs wait for this one' }),
});
export type DependenciesAnswer = z.infer<typeof dependenciesAnswerSchema>;

/** How a dependency stands given the state of the job it names. */
export function dependencyStatus(type: DependencyType, state: JobState): DependencyStatus {
  if (!isFinalState(state)) return 'waiting';
  if (type === 'afterany') return 'met';
  return (state === 'completed') === (type === 'afterok') ? 'met' : 'unmeetable';
}
