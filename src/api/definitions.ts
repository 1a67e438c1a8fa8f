import { definitionSummarySchema, successEnvelope } from '../../contract';
import { z } from 'zod';
import { declaredRetrySchema } from './attempts';
import { apiRequest } from './client';
import { optional } from './jobs';

/** A definition with the retry strategy it declares (extension of retries), defaults filled in. */
const declaredDefinitionSchema = definitionSummarySchema.extend({
  retry: declaredRetrySchema.nullish(),
});
export type DeclaredDefinition = z.infer<typeof declaredDefinitionSchema>;

const declaredListSchema = z.object({ items: z.array(declaredDefinitionSchema) });

/** Extension: the project's job definitions with their commands and defaults; null when not offered. */
export function listDefinitions(): Promise<DeclaredDefinition[] | null> {
  return optional(
    async () =>
      (await apiRequest('GET', '/v1/client/definitions', successEnvelope(declaredListSchema))).data
        .items,
  );
}
