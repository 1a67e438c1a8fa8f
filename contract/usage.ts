import { z } from 'zod';

/**
 * Extension: what one attempt used, sampled from the engine while it ran
 * (docs/guides/usage.md). Absent where the engine reports no usage: never a made-up figure.
 */
export const attemptUsageSchema = z.object({
  attempt: z.number().int(),
  peak_memory_bytes: z.number().int().meta({
    description:
      'The most memory it was seen to use (the kernel’s count, page cache included, as its limit counts it)',
  }),
  peak_memory_exact: z.boolean().meta({
    description:
      'true: the engine’s own peak (cgroup v1), exact up to the last sample; false: the largest of the samples (cgroup v2, simulated)',
  }),
  memory_limit_bytes: z.number().int().meta({ description: 'The memory limit it ran with' }),
  memory_efficiency: z
    .number()
    .meta({ description: 'peak_memory_bytes / memory_limit_bytes: 1 is all it asked for' }),
  cpu_ms: z
    .number()
    .int()
    .meta({ description: 'CPU time used, user and system, as of the last sample' }),
  cpus: z.number().meta({ description: 'The CPUs it was given' }),
  wall_ms: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'How long it ran (so far, while it runs); null when it never started' }),
  cpu_efficiency: z.number().nullable().meta({
    description: 'cpu_ms / (wall_ms × cpus): 1 is every CPU it was given, busy all along',
  }),
  samples: z.number().int().meta({ description: 'How many reads of the engine it is made from' }),
  sampled_at: z.iso.datetime({ offset: true }).meta({ description: 'The last read' }),
});
export type AttemptUsageAnswer = z.infer<typeof attemptUsageSchema>;
