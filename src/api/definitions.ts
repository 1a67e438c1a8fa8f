import { queryOptions } from '@tanstack/react-query';
import {
  definitionListSchema,
  definitionSizingSchema,
  successEnvelope,
  type DefinitionSummary,
  definitionOperations,
} from '../../contract';
import { requestOperation } from './client';
import { optional } from './jobs';
import { catalogKeys } from './keys';

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

/** Runs end every few seconds at most; a minute is fresh enough for a right-size hint. */
const SIZING_STALE_MS = 60_000;

/**
 * Extension: a definition's right-size hint from its recent runs (peak memory p95 and CPU time
 * against what it asks for); null when the service does not offer it.
 */
export const definitionSizingQuery = (definition: string) =>
  queryOptions({
    queryKey: catalogKeys.sizing(definition),
    queryFn: () =>
      optional(
        async () =>
          (
            await requestOperation(
              definitionOperations.definitionSizing,
              successEnvelope(definitionSizingSchema),
              { params: { job_definition: definition } },
            )
          ).data,
      ),
    staleTime: SIZING_STALE_MS,
  });
