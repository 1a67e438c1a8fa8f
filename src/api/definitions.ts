import { definitionListSchema, successEnvelope, type DefinitionSummary } from '../../contract';
import { apiRequest } from './client';
import { optional } from './jobs';

/** Extension: the project's job definitions with their commands and defaults; null when not offered. */
export function listDefinitions(): Promise<DefinitionSummary[] | null> {
  return optional(
    async () =>
      (await apiRequest('GET', '/v1/client/definitions', successEnvelope(definitionListSchema)))
        .data.items,
  );
}
