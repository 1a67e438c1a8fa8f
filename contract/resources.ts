import { z } from 'zod';
import { defineOperations, errors, failure, ok } from './operation';
import { jobStateSchema } from './states';

/**
 * Extension: what a submission asks for instead of its definition's `resources`, each within the
 * bounds the definition sets (docs/guides/hosts.md). A field left out keeps the definition's.
 */
export const resourceRequestSchema = z
  .strictObject(
    {
      cpus: z
        .number({ error: 'must be a number' })
        .positive('must be positive')
        .max(1024, 'must be at most 1024')
        .optional(),
      memory_bytes: z
        .number({ error: 'must be a whole number of bytes' })
        .int('must be a whole number of bytes')
        .positive('must be positive')
        .optional(),
      gpus: z
        .number({ error: 'must be a whole number' })
        .int('must be a whole number')
        .min(0, 'must not be negative')
        .max(64, 'must be at most 64')
        .optional(),
    },
    { error: 'must be an object like { "cpus": 2, "memory_bytes": 1073741824, "gpus": 0 }' },
  )
  .meta({
    description:
      "What the job needs instead of the definition's resources, within its bounds; the container's limits are raised to it",
  });
export type ResourceRequest = z.infer<typeof resourceRequestSchema>;

/** CPUs, bytes of memory and GPUs: a job's request, a host's capacity or what is used of it. */
export const resourcesSchema = z.object({
  cpus: z.number(),
  memory_bytes: z.number().int(),
  gpus: z.number().int(),
});
export type ResourcesRecord = z.infer<typeof resourcesSchema>;

/** `binpack`: the fullest host that fits (room kept whole for big jobs); `spread`: the emptiest. */
export const PLACEMENT_POLICIES = ['binpack', 'spread'] as const;
export type PlacementPolicy = (typeof PLACEMENT_POLICIES)[number];

export const HOST_STATES = ['ready', 'drained', 'lost'] as const;

/** A job of the caller's project that holds room on a host. */
export const hostJobSchema = z.object({
  id: z.string(),
  name: z.string(),
  queue: z.string(),
  state: jobStateSchema,
  resources: resourcesSchema,
});

/** Extension: one host of the engine, what it has for Jobdeck's jobs and what they hold of it. */
export const hostSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(HOST_STATES).meta({
    description:
      'ready takes new work; drained and lost take none (their jobs count until they end)',
  }),
  capacity: resourcesSchema.meta({ description: "What Jobdeck's jobs may use of it" }),
  used: resourcesSchema.meta({
    description: "What Jobdeck's jobs holding a slot there ask for, every project's",
  }),
  jobs: z.array(hostJobSchema).meta({ description: "The caller's project's jobs there" }),
  other_jobs: z
    .number()
    .int()
    .meta({ description: 'Jobs of other projects there (counted in used, not listed)' }),
});
export type HostRecord = z.infer<typeof hostSchema>;

export const hostListSchema = z.object({
  placement: z.boolean().meta({
    description:
      'Whether jobs are placed by their resources (false: the engine reports no hosts, and slots alone limit them)',
  }),
  items: z.array(hostSchema),
});
export type HostList = z.infer<typeof hostListSchema>;

export const hostOperations = defineOperations({
  listHosts: {
    id: 'listHosts',
    method: 'get',
    path: '/v1/client/hosts',
    role: 'viewer',
    summary:
      "The engine's hosts with their capacity, what jobs use of it, and the project's jobs on each (extension)",
    answers: {
      200: ok(hostListSchema.meta({ id: 'HostList' }), 'Hosts by name'),
      ...errors(401, 429),
      503: failure('The container engine does not answer: its hosts are not known now'),
    },
  },
});
