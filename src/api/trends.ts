import { queryOptions } from '@tanstack/react-query';
import { successEnvelope, trendsSchema, type TrendRange } from '../../contract';
import { apiRequest } from './client';
import { trendKeys } from './keys';

/** The service rolls ended jobs up every few seconds; a minute is fresh enough for a trend. */
const TRENDS_REFRESH_MS = 60_000;

/** Extension: a queue's jobs ended per hour (24h) or day (30d) and their waiting and run times. */
export const trendsQuery = (queue: string, range: TrendRange) =>
  queryOptions({
    queryKey: trendKeys.queue(queue, range),
    queryFn: async () =>
      (
        await apiRequest(
          'GET',
          `/v1/client/trends?${new URLSearchParams({ queue, range })}`,
          successEnvelope(trendsSchema),
        )
      ).data,
    refetchInterval: TRENDS_REFRESH_MS,
  });
