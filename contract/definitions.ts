import { z } from 'zod';
import { defineOperations, errors, ok } from './operation';
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
});
