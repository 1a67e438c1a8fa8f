import { z } from 'zod';
import { defineOperations, errors, failure, ok } from './operation';
import { resourcesSchema } from './resources';
import { retryStrategySchema } from './retry';

/**
 * Extension: one job definition version of the project, as the configuration declares it: what
 * a submit of it runs unless the submission says otherwise. Environment values are left out
 * (only the names): a definition's env can hold what an operator would not show every key holder.
 */
export const definitionSummarySchema = z.object({
  job_definition: z
    .string()
    .meta({ description: 'The reference to submit: project::name:version' }),
  name: z.string(),
  version: z.string(),
  image: z.string(),
  command: z
    .array(z.string())
    .meta({ description: 'Command words; Param::key words refer to parameters' }),
  parameters: z
    .record(z.string(), z.string())
    .meta({ description: 'Default parameters, overridden by container_cmd_parameter' }),
  env_names: z
    .array(z.string())
    .meta({ description: 'Variables the definition sets (names only)' }),
  timeout_seconds: z.number().int(),
  stop_grace_seconds: z.number().int(),
  cpus: z.number().nullable().meta({ description: 'null: the service default' }),
  memory_bytes: z.number().int().nullable().meta({ description: 'null: the service default' }),
  network: z.string(),
  retry: retryStrategySchema.optional(),
  resources: resourcesSchema
    .extend({
      max: resourcesSchema.meta({ description: 'The most a submission may ask for' }),
    })
    .optional()
    .meta({
      description:
        "What each job asks for to be placed (its limits when the definition declares no resources), and the bounds of a submission's own",
    }),
});
export type DefinitionSummary = z.infer<typeof definitionSummarySchema>;

export const definitionListSchema = z.object({ items: z.array(definitionSummarySchema) });
export type DefinitionList = z.infer<typeof definitionListSchema>;

/** Extension: what a definition's recent runs used against what it asks for. */
export const definitionSizingSchema = z.object({
  job_definition: z.string(),
  runs: z.number().int().meta({
    description:
      'Its ended attempts with usage figures the hint is made from, newest first: at most 50, among its newest 500 jobs',
  }),
  enough_runs: z
    .boolean()
    .meta({ description: 'false below 5 runs: memory and cpu are null then' }),
  asked: z.object({
    memory_bytes: z
      .number()
      .int()
      .meta({ description: 'The memory limit a job of it gets now (raised to its request)' }),
    cpus: z.number().meta({ description: 'The CPUs a job of it gets now' }),
  }),
  memory: z
    .object({
      p95_peak_bytes: z
        .number()
        .int()
        .meta({ description: 'The 95th percentile of the runs’ peaks (nearest rank)' }),
      max_peak_bytes: z.number().int(),
      efficiency: z
        .number()
        .meta({ description: 'p95_peak_bytes / asked.memory_bytes, two decimals' }),
    })
    .nullable(),
  cpu: z
    .object({
      efficiency: z.number().meta({
        description:
          'The runs’ CPU time / (their wall time × the CPUs each was given), two decimals',
      }),
      runs: z.number().int().meta({ description: 'The runs with a wall time it is made from' }),
    })
    .nullable()
    .meta({ description: 'null below 5 runs with a wall time' }),
  summary: z.string().meta({
    description:
      'The hint in one sentence: "the last 50 runs peaked at 310 MiB p95 of 1 GiB asked: 0.3 efficiency", or "not enough runs: …"',
  }),
});
export type DefinitionSizing = z.infer<typeof definitionSizingSchema>;

export const definitionSizingPathSchema = z.object({
  job_definition: z.string().meta({ description: 'project::name:version' }),
});

export const definitionOperations = defineOperations({
  listDefinitions: {
    id: 'listDefinitions',
    method: 'get',
    path: '/v1/client/definitions',
    role: 'viewer',
    summary:
      "The project's job definitions, each version with its command and defaults (extension)",
    answers: {
      200: ok(
        definitionListSchema.meta({ id: 'DefinitionList' }),
        'Definitions by name, then version',
      ),
      ...errors(401, 429),
    },
  },
  definitionSizing: {
    id: 'definitionSizing',
    method: 'get',
    path: '/v1/client/definitions/{job_definition}/sizing',
    role: 'viewer',
    summary:
      "A right-size hint: the peak memory (p95) and CPU time of a definition's recent runs against what it asks for (extension)",
    params: definitionSizingPathSchema,
    answers: {
      200: ok(definitionSizingSchema.meta({ id: 'DefinitionSizing' }), 'The hint'),
      ...errors(401, 429),
      404: failure('No such definition in this API key’s project'),
    },
  },
});
