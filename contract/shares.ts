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

const quotaAmountsSchema = shareAmountsSchema.partial();

/** Extension: a quota, and what is borrowed beyond it and lent from it now. */
export const quotaFiguresSchema = z.object({
  nominal: quotaAmountsSchema.meta({
    description: 'Its quota, in the dimensions set (one left out is not limited)',
  }),
  borrowing_limit: quotaAmountsSchema.meta({
    description:
      "The most it may use beyond its quota of the others' unused quota (a dimension left out: all that is unused)",
  }),
  lending_limit: quotaAmountsSchema.meta({
    description:
      'The most of its unused quota the others may borrow (a dimension left out: all of it)',
  }),
  borrowed: shareAmountsSchema.meta({ description: 'What it uses beyond its quota now' }),
  lent: shareAmountsSchema.meta({
    description:
      'What the others borrow of its unused quota now (what is borrowed, counted against the lenders in proportion to what each has to lend)',
  }),
});
export type QuotaFiguresRecord = z.infer<typeof quotaFiguresSchema>;

const spreadOf = <T extends z.ZodType>(level: T) =>
  z.object({
    average: level.meta({ description: 'Its average over the hour (time-weighted)' }),
    peak: level.meta({ description: 'Its highest level in the hour' }),
  });

/** Extension: one hour of a project's or queue's use, and under a quota what it borrowed and lent. */
export const sharePointSchema = z.object({
  start: z.string().meta({ description: 'The hour’s start, RFC 3339 (UTC)' }),
  in_use: spreadOf(shareAmountsSchema).meta({
    description: 'What its jobs holding a slot asked for',
  }),
  dominant: spreadOf(z.number()).meta({
    description: 'The largest fraction it held of a capacity, 0 to 1 (against the capacity now)',
  }),
  borrowed: spreadOf(quotaAmountsSchema).optional().meta({
    description:
      'What it used beyond its quota, in the dimensions its quota sets (as the quota is set now); absent: no quota',
  }),
  lent: spreadOf(quotaAmountsSchema).optional().meta({
    description:
      'What the others used of its unused quota, in the dimensions its quota sets; absent: no quota',
  }),
});
export type SharePointRecord = z.infer<typeof sharePointSchema>;

// Named, so that the OpenAPI document declares it once for both levels (a project's, a queue's).
const sharePoint = sharePointSchema.meta({
  id: 'SharePoint',
  description:
    "One hour of a project's or queue's use, and under a quota what it borrowed and lent",
});

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
  quota: quotaFiguresSchema.optional().meta({
    description: 'Its quota, borrowed and lent (docs/guides/quotas.md); absent: no quota is set',
  }),
  last_day: z.array(sharePoint).optional().meta({
    description:
      'The last 24 hours, one point per UTC hour, oldest first, the current hour (so far) last; counted at most once a minute',
  }),
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
      "Each project's and queue's fair share: weight, what it is due, what it holds now and held recently, and its quota, borrowed and lent where one is set (extension)",
    answers: {
      200: ok(shareListSchema.meta({ id: 'ShareList' }), 'Shares by project'),
      ...errors(401, 429),
    },
  },
});
