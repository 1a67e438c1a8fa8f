import type { FastifyInstance } from 'fastify';
import {
  CURSOR_MESSAGE,
  type AuditEvent,
  type AuditPage,
  auditOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import type { AuditTrail } from '../../jobs/audit';
import type { AuditEntry } from '../../jobs/ports';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import type { PositionCodec } from '../positions';

const toAuditEvent = (entry: AuditEntry): AuditEvent => ({
  id: entry.id,
  at: new Date(entry.at).toISOString(),
  actor: entry.actor,
  address: entry.address,
  action: entry.action,
  target: entry.target,
  detail: entry.detail,
});

/**
 * Cursors are positions in the audit trail's own sequence, made opaque like the job list's; a
 * tag of their own keeps a job list's cursor from passing for one.
 */
const cursorScope = (project: string) => `audit:${project}`;

/** Extension: the project's audit trail, newest first, for its admins. */
export function auditRoutes(
  app: FastifyInstance,
  { trail, positions }: { trail: AuditTrail; positions: PositionCodec },
): void {
  operationRoute(app, auditOperations.listAuditEvents, async (request) => {
    const { query } = request;
    const { project } = principalOf(request);
    const beforeSeq =
      query.cursor === undefined ? undefined : positions.decode(cursorScope(project), query.cursor);
    if (beforeSeq === null) throw new HttpError(400, `cursor: ${CURSOR_MESSAGE}`);
    const items = await trail.list(project, {
      actor: query.actor,
      action: query.action,
      target: query.target,
      since: query.since === undefined ? undefined : Date.parse(query.since),
      until: query.until === undefined ? undefined : Date.parse(query.until),
      beforeSeq,
      limit: query.limit,
    });
    const last = items.at(-1);
    const page: AuditPage = {
      items: items.map(toAuditEvent),
      next_cursor:
        items.length === query.limit && last
          ? positions.encode(cursorScope(project), last.seq)
          : null,
    };
    return { ok: true, data: page };
  });
}
