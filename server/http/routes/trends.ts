import type { FastifyInstance } from 'fastify';
import { trendOperations, type TrendIncident, type Trends } from '../../../contract';
import { operationRoute } from '../operation-route';
import type { DurationFigures, QueueTrends, TrendsReader } from '../../jobs/trends';
import { principalOf } from '../auth';
import type { IncidentWindow } from '../../jobs/incidents';

const msOf = (value: number | null) => (value === null ? null : Math.round(value));

const toDuration = ({ jobs, p50Ms, p95Ms }: DurationFigures) => ({
  jobs,
  p50_ms: msOf(p50Ms),
  p95_ms: msOf(p95Ms),
});

const iso = (ms: number) => new Date(ms).toISOString();

const toIncident = (queue: string, window: IncidentWindow): TrendIncident => ({
  kind: window.kind,
  started_at: iso(window.startedAt),
  ended_at: window.endedAt === null ? null : iso(window.endedAt),
  note: window.note,
  ended_error: window.endedError,
  errors_filter: {
    state: ['error'],
    queue,
    ended_after: iso(window.startedAt),
    ...(window.errorsUntil !== null && { ended_before: iso(window.errorsUntil) }),
  },
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
  ...(trends.incidents && {
    incidents: trends.incidents.map((window) => toIncident(trends.queue, window)),
  }),
});

/** Extension: a queue's jobs ended per hour or day, and their waiting and run times. */
export function trendRoutes(app: FastifyInstance, trends: TrendsReader): void {
  operationRoute(app, trendOperations.queueTrends, async (request) => {
    const { queue, range } = request.query;
    const project = principalOf(request).project;
    return { ok: true, data: toTrends(await trends(project, queue, range)) };
  });
}
