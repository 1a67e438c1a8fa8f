import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  MAX_COUNTED_JOBS,
  SCHEDULE_LIMITS,
  type AuditAction,
  attemptLogsPathSchema,
  jobOperations,
  pauseRequestSchema,
  queueMaxRunningSchema,
  definitionOperations,
  identityOperations,
  queueControlOperations,
  queueOperations,
  scheduleOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import { listPageOf, nextCursorOf } from '../list-page';
import type { JobReadModel } from '../../jobs/read-model';
import type { QueueControlChange } from '../../jobs/ports';
import type { QueueControls } from '../../jobs/queue-controls';
import { toLogInstant } from '../../jobs/log-instant';
import type { Scheduler } from '../../jobs/scheduler';
import { audit } from '../audit';
import { principalOf, whoAmIOf } from '../auth';
import { HttpError } from '../errors';
import { jobFilterOf } from '../job-filter';
import { parseBodyOrThrow, parseOrThrow } from '../parse';
import type { PositionCodec } from '../positions';
import type { ExecRoutesOptions } from './exec';
import {
  toArray,
  toAttempts,
  toDependencies,
  toDefinitionSizing,
  toDefinitionSummary,
  toEngineHealth,
  toJobExecution,
  toJobListItem,
  toJobLogs,
  toQueueSummary,
  toSchedule,
  toTransition,
} from '../presenters';

type QueueRequest = { Params: { queue: string } };

/** Jobdeck's extensions, for the console and scripts (the event stream aside). */
export function extensionRoutes(
  app: FastifyInstance,
  reads: JobReadModel,
  options: {
    scheduler: Scheduler;
    controls: QueueControls;
    version: string;
    engine: string;
    positions: PositionCodec;
    exec: ExecRoutesOptions;
  },
): void {
  const { scheduler, controls, version, engine, positions, exec } = options;
  operationRoute(app, jobOperations.listJobs, async (request) => {
    const { query } = request;
    const { project } = principalOf(request);
    const idSuffix = query.id_suffix?.toLowerCase();
    const filter = { ...jobFilterOf(query), idSuffix, project };
    const page = listPageOf(query, project, positions);
    const [jobs, counted] = await Promise.all([
      reads.list({ ...filter, limit: query.limit, ...page }),
      reads.count(filter, MAX_COUNTED_JOBS),
    ]);
    const last = jobs.length === query.limit ? jobs.at(-1) : undefined;
    return {
      ok: true,
      data: {
        items: jobs.map(toJobListItem),
        total: Math.min(counted, MAX_COUNTED_JOBS),
        total_exact: counted <= MAX_COUNTED_JOBS,
        next_cursor: last ? nextCursorOf(last, project, page.sort, positions) : null,
      },
    };
  });

  operationRoute(app, jobOperations.getJobTransitions, async (request) => {
    const items = await reads.transitions(principalOf(request).project, request.params.job_id);
    return { ok: true, data: { items: items.map(toTransition) } };
  });

  operationRoute(app, jobOperations.getJobLogs, async (request) => {
    const { since } = request.query;
    const after = since === undefined ? null : toLogInstant(since);
    if (after === undefined) throw new HttpError(400, 'since: is not a valid time');
    const logs = await reads.logs(principalOf(request).project, request.params.job_id, after);
    return { ok: true, data: toJobLogs(logs) };
  });

  operationRoute(app, jobOperations.getJobAttempts, async (request) => {
    const { job, items, usage } = await reads.attempts(
      principalOf(request).project,
      request.params.job_id,
    );
    return { ok: true, data: toAttempts(job, items, usage) };
  });

  operationRoute(app, jobOperations.getJobAttemptLogs, async (request) => {
    const { job_id, attempt } = parseOrThrow(attemptLogsPathSchema, request.params);
    const { project } = principalOf(request);
    const logs = await reads.attemptLogs(project, job_id, attempt);
    return { ok: true, data: toJobLogs({ ...logs, next: null }) };
  });

  operationRoute(app, jobOperations.getJobDependencies, async (request) => {
    const found = await reads.dependencies(principalOf(request).project, request.params.job_id);
    return { ok: true, data: toDependencies(found) };
  });

  operationRoute(app, jobOperations.getJobArray, async (request) => {
    const { query } = request;
    const found = await reads.array(principalOf(request).project, request.params.job_id, {
      states: query.state,
      afterIndex: query.cursor === undefined ? -1 : Number(query.cursor),
      limit: query.limit,
    });
    return { ok: true, data: toArray(found) };
  });

  operationRoute(app, jobOperations.getJobExecution, async (request) => {
    const execution = await reads.execution(principalOf(request).project, request.params.job_id);
    return { ok: true, data: toJobExecution(execution) };
  });

  operationRoute(app, queueOperations.listQueues, async (request) => {
    const queues = await reads.queues(principalOf(request).project);
    return { ok: true, data: { items: queues.map(toQueueSummary) } };
  });

  /** Changes the queue for every instance; answers its summary as it is now. */
  const changeQueue = async (
    request: FastifyRequest<QueueRequest>,
    change: QueueControlChange,
    action: AuditAction,
    detail?: Record<string, unknown>,
  ) => {
    const { project, actor } = principalOf(request);
    const queue = request.params.queue;
    await controls.change(project, queue, change, actor);
    audit(request, action, queue, detail);
    const [overview] = await reads.queues(project, queue);
    return { ok: true, data: toQueueSummary(overview!) };
  };
  operationRoute(app, queueControlOperations.pauseQueue, (request) => {
    const { reason } = parseBodyOrThrow(pauseRequestSchema, request.body);
    return changeQueue(request, { paused: { reason: reason ?? null } }, 'queue.pause', {
      reason: reason ?? null,
    });
  });
  operationRoute(app, queueControlOperations.resumeQueue, (request) =>
    changeQueue(request, { paused: false }, 'queue.resume'),
  );
  operationRoute(app, queueControlOperations.setQueueMaxRunning, (request) => {
    const body = parseBodyOrThrow(queueMaxRunningSchema, request.body);
    return changeQueue(request, { maxRunning: body.max_running }, 'queue.max_running', {
      max_running: body.max_running,
    });
  });

  const shown = { next: SCHEDULE_LIMITS.nextShown, recent: SCHEDULE_LIMITS.recentShown };
  operationRoute(app, scheduleOperations.listSchedules, async (request) => {
    const views = await scheduler.list(principalOf(request).project, shown.next, shown.recent);
    return { ok: true, data: { items: views.map(toSchedule) } };
  });

  operationRoute(app, scheduleOperations.pauseSchedule, async (request) => {
    const { reason } = parseBodyOrThrow(pauseRequestSchema, request.body);
    const { project } = principalOf(request);
    const view = await scheduler.setPaused(
      project,
      request.params.name,
      true,
      reason ?? null,
      shown,
    );
    audit(request, 'schedule.pause', request.params.name, { reason: reason ?? null });
    return { ok: true, data: toSchedule(view) };
  });

  operationRoute(app, scheduleOperations.resumeSchedule, async (request) => {
    const { project } = principalOf(request);
    const view = await scheduler.setPaused(project, request.params.name, false, null, shown);
    audit(request, 'schedule.resume', request.params.name);
    return { ok: true, data: toSchedule(view) };
  });

  operationRoute(app, identityOperations.whoAmI, (request) => {
    const principal = principalOf(request);
    return Promise.resolve({
      ok: true,
      data: {
        ...whoAmIOf(principal),
        exec: { enabled: exec.enabledIn.has(principal.project), supported: exec.exec.supported },
        service: {
          name: 'jobdeck',
          version,
          engine,
          engine_health: toEngineHealth(reads.engineStatus()),
        },
      },
    });
  });

  operationRoute(app, definitionOperations.listDefinitions, (request) => {
    const definitions = reads.definitions(principalOf(request).project);
    return Promise.resolve({ ok: true, data: { items: definitions.map(toDefinitionSummary) } });
  });

  operationRoute(app, definitionOperations.definitionSizing, async (request) => {
    const ref = request.params.job_definition;
    const hint = await reads.sizing(principalOf(request).project, ref);
    return { ok: true, data: toDefinitionSizing(ref, hint) };
  });
}
