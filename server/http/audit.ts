import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditAction } from '../../contract';
import type { AuditTrail } from '../jobs/audit';
import { principalOf } from './auth';

declare module 'fastify' {
  interface FastifyInstance {
    auditTrail: AuditTrail;
  }
}

/** Gives every route of `app` the trail that `audit` records to. */
export function installAuditTrail(app: FastifyInstance, trail: AuditTrail): void {
  app.decorate('auditTrail', trail);
}

/**
 * Records what the request's principal did, from the request's address; called once the action
 * succeeded. `detail` must hold no secret (no env value or command, no key, no webhook secret or
 * URL): the trail shows it to the project's admins as it is.
 */
export function audit(
  request: FastifyRequest,
  action: AuditAction,
  target?: string | null,
  detail?: Record<string, unknown>,
): void {
  auditAs(request, principalOf(request), action, target, detail);
}

/** As `audit`, for whom the request names itself: a sign-in (a failed one has no project). */
export function auditAs(
  request: FastifyRequest,
  who: { project: string | null; actor: string },
  action: AuditAction,
  target?: string | null,
  detail?: Record<string, unknown>,
): void {
  request.server.auditTrail.record({
    project: who.project,
    actor: who.actor,
    address: request.clientAddress,
    action,
    target: target ?? null,
    ...(detail && { detail }),
  });
}

/** A sign-in or sign-out shows in each project the user belongs to. */
export function auditInProjects(
  request: FastifyRequest,
  identity: string,
  projects: readonly { project: string }[],
  action: 'user.sign_in' | 'user.sign_out',
  detail?: Record<string, unknown>,
) {
  for (const { project } of projects) {
    auditAs(request, { project, actor: `user:${identity}` }, action, identity, detail);
  }
}
