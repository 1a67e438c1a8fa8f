import type { FastifyInstance } from 'fastify';
import { trendOperations, type Trends } from '../../../contract';
import { operationRoute } from '../operation-route';
import type { DurationFigures, QueueTrends, TrendsReader } from '../../jobs/trends';
import { principalOf } from '../auth';

const msOf = (value: number | null) => (value === null ? null : Math.round(value));

const toDuration = ({ jobs, p50Ms, p95Ms }: DurationFigures) => ({
  jobs,
  p50_ms: msOf(p50Ms),
  p95_ms: msOf(p95Ms),
});

const toTrends = (trends: QueueTrends): Trends => ({
  queue: trends.queue,
  range: trends.range,
  bucket_seconds: trends.bucketMs / 1000,
  buckets: trends.points.map(({ start, ...counts }) => ({
    start: new Date(start).toISOString(),
    ...counts,
  })),
  wait: toDuration(trends.wait),
  run: toDuration(trends.run),
});

/** Extension: a queue's jobs ended per hour or day, and their waiting and run times. */
export function trendRoutes(app: FastifyInstance, trends: TrendsReader): void {
  operationRoute(app, trendOperations.queueTrends, async (request) => {
    const { queue, range } = request.query;
    const project = principalOf(request).project;
    return { ok: true, data: toTrends(await trends(project, queue, range)) };
  });
}
