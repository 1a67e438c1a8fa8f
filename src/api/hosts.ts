import { queryOptions } from '@tanstack/react-query';
import {
  hostListSchema,
  hostOperations,
  shareListSchema,
  shareOperations,
  successEnvelope,
} from '../../contract';
import { requestOperation } from './client';
import { hostKeys } from './keys';

/** What the hosts page shows is read again this often: jobs start and end all the time. */
export const HOSTS_REFRESH_MS = 5000;

/** The engine's hosts with their capacity, what jobs use and the project's jobs on each. */
export const hostsQuery = queryOptions({
  queryKey: hostKeys.list(),
  queryFn: async () =>
    (await requestOperation(hostOperations.listHosts, successEnvelope(hostListSchema))).data,
  refetchInterval: HOSTS_REFRESH_MS,
});

/** Each project's fair share (the caller's project; every project for an admin). */
export const sharesQuery = queryOptions({
  queryKey: hostKeys.shares(),
  queryFn: async () =>
    (await requestOperation(shareOperations.listShares, successEnvelope(shareListSchema))).data,
  refetchInterval: HOSTS_REFRESH_MS,
});
