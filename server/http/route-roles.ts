import type { FastifyInstance, RouteOptions } from 'fastify';
import { roleAllows, roleFor } from '../../contract';
import { principalOf } from './auth';
import { HttpError } from './errors';

/** A route's role: its operation's, else the table's (HEAD is answered like GET). */
const roleOfRoute = (method: string, url: string, config: RouteOptions['config']) =>
  config?.operation?.role ?? roleFor(method === 'HEAD' ? 'GET' : method, documentedPath(url));

/** How the docs write a path: `{job_id}`, not `:job_id`. */
export const documentedPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Installs the check on the client scope, after authentication: every route there must have a
 * role in OPERATION_ROLES, and a request whose principal holds less is a 403 naming the role it needs.
 */
export function enforceRouteRoles(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!roleOfRoute(method, route.url, route.config)) {
        throw new Error(
          `${method} ${route.url} has no role in OPERATION_ROLES (contract/roles.ts)`,
        );
      }
    }
  });
  app.addHook('onRequest', async (request) => {
    const { method, url, config } = request.routeOptions;
    if (url === undefined) return; // no such route: the 404 says so
    const needed = roleOfRoute([method].flat()[0]!, url, config)!;
    const { role, actor } = principalOf(request);
    if (roleAllows(role, needed)) return;
    const holder = actor.startsWith('key:') ? 'this API key has' : 'you have';
    throw new HttpError(
      403,
      `role: ${request.method} ${documentedPath(url)} needs the ${needed} role; ${holder} ${role} in this project`,
    );
  });
}
