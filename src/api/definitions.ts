import {
  definitionListSchema,
  successEnvelope,
  type DefinitionSummary,
  definitionOperations,
} from '../../contract';
import { requestOperation } from './client';
import { optional } from './jobs';

/** Extension: the project's job definitions with their commands and defaults; null when not offered. */
export function listDefinitions(): Promise<DefinitionSummary[] | null> {
  return optional(
    async () =>
      (
        await requestOperation(
          definitionOperations.listDefinitions,
          successEnvelope(definitionListSchema),
        )
      ).data.items,
  );
}
