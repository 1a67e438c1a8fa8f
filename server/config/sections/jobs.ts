import { z } from 'zod';
import { memorySize, period, positiveInt } from './fields';

/** Output kept of each ended job unless job_output says otherwise. */
export const DEFAULT_KEPT_OUTPUT_BYTES = 10 * 1024 ** 2;

const jobDefaultsSchema = z.strictObject({
  memory: memorySize.default(512 * 1024 ** 2).describe('Memory a job may use (default 512m)'),
  cpus: z.number().positive().default(1).describe('CPUs a job may use'),
  pids_limit: positiveInt
    .default(512)
    .describe('Processes and threads a job may have at once: a fork bomb stops here'),
});

export const jobDefaultsSection = jobDefaultsSchema
  .prefault({})
  .describe('Limits every job container gets unless its definition sets its own');

export const jobOutputSection = z
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
  .prefault({})
  .describe('How much of what jobs print is kept once they ended, compressed in the store');

export const idempotencySection = z
  .strictObject({
    window: period
      .prefault('24h')
      .describe(
        'How long an Idempotency-Key holds: the same key and request again within it answers with the same job (24h, 30m, 7d); older keys are deleted by the retention pass',
      ),
  })
  .prefault({})
  .describe("Job Submit's Idempotency-Key header (docs/guides/idempotency.md)");
