import { z } from 'zod';
import { defineOperations, errors, ok } from './operation';

/** CPUs, bytes of memory, GPUs and slots: a capacity, or what is held of it. */
export const shareAmountsSchema = z.object({
  cpus: z.number(),
  memory_bytes: z.number(),
  gpus: z.number(),
  jobs: z.number().meta({ description: "Slots (the service's max_running)" }),
});
export type ShareAmounts = z.infer<typeof shareAmountsSchema>;

export const SHARE_RESOURCES = ['cpus', 'memory_bytes', 'gpus', 'jobs'] as const;

const shareFields = {
  weight: z.number(),
  share: z.number().meta({
    description:
      'What it is due of the capacity, 0 to 1: its weight over the weights of those with work (one with no work: what it would be due if its work came)',
  }),
  in_use: shareAmountsSchema.meta({ description: 'What its jobs holding a slot ask for now' }),
  recent: shareAmountsSchema.meta({
    description:
      "Its ended jobs' use, decayed by the half-life, as an amount held: it counts in its share besides in_use",
  }),
  dominant: z
    .object({ resource: z.enum(SHARE_RESOURCES), fraction: z.number() })
    .meta({ description: 'The capacity it holds the largest fraction of now, and that fraction' }),
  active: z.boolean().meta({ description: 'Whether it holds or waits for room' }),
};

/** Extension: one queue's part of its project's share. */
export const queueShareSchema = z.object({ queue: z.string(), ...shareFields });

/** Extension: one project's share of the capacity, and its queues'. */
export const projectShareSchema = z.object({
  project: z.string(),
  ...shareFields,
  queues: z.array(queueShareSchema),
});
export type ProjectShareRecord = z.infer<typeof projectShareSchema>;

export const shareListSchema = z.object({
  half_life_seconds: z.number().int(),
  capacity: shareAmountsSchema.meta({
    description:
      "What shares are counted against: the ready hosts' CPUs, memory and GPUs (0 where the engine reports no hosts) and the service's slots",
  }),
  projects: z.array(projectShareSchema).meta({
    description: "The caller's project; every project for an admin",
  }),
});
export type ShareList = z.infer<typeof shareListSchema>;

export const shareOperations = defineOperations({
  listShares: {
    id: 'listShares',
    method: 'get',
    path: '/v1/client/shares',
    role: 'viewer',
    summary:
      "Each project's and queue's fair share: weight, what it is due, what it holds now and held recently (extension)",
    answers: {
      200: ok(shareListSchema.meta({ id: 'ShareList' }), 'Shares by project'),
      ...errors(401, 429),
    },
  },
});
