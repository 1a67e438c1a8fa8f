import type { FastifyInstance } from 'fastify';
import { roleAllows } from '../../contract';
import { principalOf } from './auth';
import { HttpError } from './errors';

/** How the docs write a path: `{job_id}`, not `:job_id`. */
export const documentedPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Installs the check on the client scope, after authentication: every route there must serve an
 * operation of the contract's table that names a role (operation-route.ts), and a request whose
 * principal holds less is a 403 naming the role it needs.
 */
export function enforceRouteRoles(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.operation?.role) {
      throw new Error(
        `${[route.method].flat().join(', ')} ${route.url} serves no operation with a role; declare it in its feature's operations (contract/)`,
      );
    }
  });
  app.addHook('onRequest', async (request) => {
    const { url, config } = request.routeOptions;
    if (url === undefined) return; // no such route: the 404 says so
    const needed = config.operation!.role!;
    const { role, actor } = principalOf(request);
    if (roleAllows(role, needed)) return;
    const holder = actor.startsWith('key:') ? 'this API key has' : 'you have';
    throw new HttpError(
      403,
      `role: ${request.method} ${documentedPath(url)} needs the ${needed} role; ${holder} ${role} in this project`,
    );
  });
}
