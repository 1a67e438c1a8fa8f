import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  BULK_RESULT_COLUMNS,
  bulkActionRequestSchema,
  type BulkAction,
  type BulkActionKind,
  type BulkDryRun,
  bulkActionOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import {
  cancelPlanOf,
  resubmitPlanOf,
  type BulkActions,
  type BulkPlan,
} from '../../jobs/bulk-actions';
import type { BulkActionRecord, BulkResultRecord } from '../../jobs/bulk-action-records';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { filterFieldsOf, jobFilterOf } from '../job-filter';
import { parseBodyOrThrow } from '../parse';

const isoOf = (time: number) => new Date(time).toISOString();

const toBulkAction = (action: BulkActionRecord): BulkAction => ({
  id: action.id,
  action: action.action,
  state: action.state,
  filter: filterFieldsOf(action.filter),
  matched: action.matched,
  processed: action.processed,
  accepted: action.accepted,
  refused: action.refused,
  created_by: action.createdBy,
  created_at: isoOf(action.createdAt),
  finished_at: action.finishedAt === null ? null : isoOf(action.finishedAt),
});

function toDryRun(kind: BulkActionKind, { matched, byState, sample }: BulkPlan): BulkDryRun {
  const common = {
    dry_run: true as const,
    matched,
    sample: sample.map((job) => ({ job_id: job.id, job_name: job.name, state: job.state })),
  };
  return kind === 'cancel'
    ? { ...common, action: kind, plan: cancelPlanOf(byState) }
    : { ...common, action: kind, plan: resubmitPlanOf(byState) };
}

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A field that
 * begins like a formula (a job named `-x`) gets a leading `'`, so a spreadsheet shows it as text
 * instead of running it (OWASP, CSV injection).
 */
function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
const csvRow = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

async function* csvOf(pages: AsyncIterable<BulkResultRecord[]>) {
  yield csvRow(BULK_RESULT_COLUMNS);
  for await (const page of pages) {
    yield page
      .map((r) => csvRow([r.jobId, r.jobName, r.stateBefore, r.result, r.message ?? '']))
      .join('');
  }
}

/** Extension: actions on every job a filter matches (the console's "select all matching", "Retry all"). */
export function bulkActionRoutes(app: FastifyInstance, bulk: BulkActions): void {
  operationRoute(app, bulkActionOperations.startBulkAction, async (request, reply) => {
    const body = parseBodyOrThrow(bulkActionRequestSchema, request.body);
    const { project, actor } = principalOf(request);
    const filter = jobFilterOf(body.filter);
    if (body.dry_run) {
      return { ok: true, data: toDryRun(body.action, await bulk.plan(project, filter)) };
    }
    const action = await bulk.start(project, actor, filter, body.action);
    audit(request, 'bulk.start', action.id, {
      action: action.action,
      filter: filterFieldsOf(action.filter),
      matched: action.matched,
    });
    return reply.code(202).send({ ok: true, data: toBulkAction(action) });
  });

  operationRoute(app, bulkActionOperations.listBulkActions, async (request) => {
    const items = await bulk.list(principalOf(request).project);
    return { ok: true, data: { items: items.map(toBulkAction) } };
  });

  operationRoute(app, bulkActionOperations.getBulkAction, async (request) => {
    const action = await bulk.get(principalOf(request).project, request.params.id);
    return { ok: true, data: toBulkAction(action) };
  });

  operationRoute(app, bulkActionOperations.stopBulkAction, async (request) => {
    const action = await bulk.stopAction(principalOf(request).project, request.params.id);
    audit(request, 'bulk.stop', action.id);
    return { ok: true, data: toBulkAction(action) };
  });

  operationRoute(app, bulkActionOperations.bulkActionResults, async (request, reply) => {
    const { id } = request.params;
    const pages = bulk.results(principalOf(request).project, id);
    // The first page is read before the answer starts: an unknown id is still a 404 envelope.
    const first = await pages.next();
    async function* all() {
      if (first.done) return;
      yield first.value;
      yield* pages;
    }
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="bulk-action-${id}.csv"`)
      .send(Readable.from(csvOf(all())));
  });
}
