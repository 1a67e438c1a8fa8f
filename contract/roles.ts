import { z } from 'zod';

/**
 * What a key or a member may do in its project, each role including the one before: a viewer
 * reads jobs, logs and queues; an operator also submits and cancels; an admin also changes
 * queues and schedules, webhooks, keys and members.
 */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).meta({
  description:
    'viewer: reads; operator: also submits and cancels; admin: also queues, schedules, webhooks, keys and members',
});

export function roleAllows(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

/**
 * The role each client route needs, by method and path. Reads are a viewer's; submitting and
 * cancelling (one job or a filter's) and the shared views an operator's; what changes how the
 * project runs (queues, schedules), where its data goes (webhooks, whose URLs may hold tokens)
 * and who may act (keys, members, the audit trail) an admin's. The service cannot register a client route
 * missing here, so a new one cannot forget its role; the OpenAPI document and the console read
 * the same table.
 */
export const OPERATION_ROLES: Readonly<Record<string, Role>> = {
  'POST /v1/client/job': 'operator',
  'GET /v1/client/job/{job_id}': 'viewer',
  'POST /v1/client/job/{job_id}/cancel': 'operator',
  'GET /v1/client/jobs': 'viewer',
  'GET /v1/client/job/{job_id}/transitions': 'viewer',
  'GET /v1/client/job/{job_id}/logs': 'viewer',
  'GET /v1/client/job/{job_id}/attempts': 'viewer',
  'GET /v1/client/job/{job_id}/attempts/{attempt}/logs': 'viewer',
  'GET /v1/client/job/{job_id}/dependencies': 'viewer',
  'GET /v1/client/job/{job_id}/array': 'viewer',
  'GET /v1/client/job/{job_id}/execution': 'viewer',
  'GET /v1/client/events': 'viewer',
  'GET /v1/client/whoami': 'viewer',
  'GET /v1/client/definitions': 'viewer',
  'GET /v1/client/trends': 'viewer',
  'GET /v1/client/queues': 'viewer',
  'POST /v1/client/queues/{queue}/pause': 'admin',
  'POST /v1/client/queues/{queue}/resume': 'admin',
  'POST /v1/client/queues/{queue}/max-running': 'admin',
  'GET /v1/client/schedules': 'viewer',
  'POST /v1/client/schedules/{name}/pause': 'admin',
  'POST /v1/client/schedules/{name}/resume': 'admin',
  'GET /v1/client/views': 'viewer',
  'PUT /v1/client/views/{name}': 'operator',
  'DELETE /v1/client/views/{name}': 'operator',
  'GET /v1/client/bulk-actions': 'viewer',
  'POST /v1/client/bulk-actions': 'operator',
  'GET /v1/client/bulk-actions/{id}': 'viewer',
  'POST /v1/client/bulk-actions/{id}/stop': 'operator',
  'GET /v1/client/bulk-actions/{id}/results': 'viewer',
  'GET /v1/client/webhooks': 'admin',
  'POST /v1/client/webhooks': 'admin',
  'GET /v1/client/webhooks/{id}': 'admin',
  'PATCH /v1/client/webhooks/{id}': 'admin',
  'DELETE /v1/client/webhooks/{id}': 'admin',
  'POST /v1/client/webhooks/{id}/test': 'admin',
  'GET /v1/client/webhooks/{id}/deliveries': 'admin',
  'GET /v1/client/keys': 'admin',
  'POST /v1/client/keys': 'admin',
  'DELETE /v1/client/keys/{id}': 'admin',
  'GET /v1/client/members': 'admin',
  'PUT /v1/client/members/{identity}': 'admin',
  'DELETE /v1/client/members/{identity}': 'admin',
  'GET /v1/client/audit': 'admin',
};

/** The role an operation needs, by method and documented path (`/v1/client/job/{job_id}`). */
export const roleFor = (method: string, path: string): Role | undefined =>
  OPERATION_ROLES[`${method.toUpperCase()} ${path}`];

/** Each project once, with the highest role any entry gives it, by project name. */
export function highestPerProject<T extends { project: string; role: Role }>(
  entries: readonly T[],
): { project: string; role: Role }[] {
  const best = new Map<string, Role>();
  for (const { project, role } of entries) {
    const held = best.get(project);
    if (!held || roleAllows(role, held)) best.set(project, role);
  }
  return [...best]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([project, role]) => ({ project, role }));
}
