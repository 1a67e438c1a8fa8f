import { queryOptions } from '@tanstack/react-query';
import { successEnvelope, trendOperations, trendsSchema, type TrendRange } from '../../contract';
import { requestOperation } from './client';
import { trendKeys } from './keys';

/** The service rolls ended jobs up every few seconds; a minute is fresh enough for a trend. */
const TRENDS_REFRESH_MS = 60_000;

/** Extension: a queue's jobs ended per hour (24h) or day (30d) and their waiting and run times. */
export const trendsQuery = (queue: string, range: TrendRange) =>
  queryOptions({
    queryKey: trendKeys.queue(queue, range),
    queryFn: async () =>
      (
        await requestOperation(trendOperations.queueTrends, successEnvelope(trendsSchema), {
          query: new URLSearchParams({ queue, range }),
        })
      ).data,
    refetchInterval: TRENDS_REFRESH_MS,
  });
