import { queryOptions } from '@tanstack/react-query';
import {
  failureOperations,
  failuresSchema,
  successEnvelope,
  type BulkFilter,
} from '../../contract';
import { requestOperation } from './client';
import { filterSearch } from './jobs';
import { failureKeys } from './keys';

/** A filter's newest unsuccessful jobs grouped by state, exit code and cause (extension). */
export const failureGroupsQuery = (filter: BulkFilter) =>
  queryOptions({
    queryKey: failureKeys.groups(filter),
    queryFn: async () =>
      (
        await requestOperation(
          failureOperations.listFailureGroups,
          successEnvelope(failuresSchema),
          { query: filterSearch(filter) },
        )
      ).data,
    retry: false,
  });
