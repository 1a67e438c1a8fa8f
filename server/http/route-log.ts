import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Operation } from '../../contract/operation';

export interface RegisteredRoute {
  method: string;
  url: string;
  /** The contract's declaration it serves; undefined for a route outside the table. */
  operation: Operation | undefined;
  /** One of the 405 answers made for the methods a path does not take. */
  methodNotAllowed: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far, one entry per method, HEAD included. */
    registeredRoutes: readonly RegisteredRoute[];
  }
  interface FastifyContextConfig {
    methodNotAllowed?: boolean;
  }
}

/**
 * Records every route the app (and each scope inside it) registers from now on: the 405s are
 * made from this list, and a test compares it with the contract's table of operations.
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        operation: route.config?.operation,
        methodNotAllowed: route.config?.methodNotAllowed === true,
      });
    }
  });
}

/** Each path's methods, as registered. */
export function methodsByPath(routes: readonly RegisteredRoute[]): Map<string, Set<HTTPMethods>> {
  const byPath = new Map<string, Set<HTTPMethods>>();
  for (const { url, method } of routes) {
    byPath.set(url, (byPath.get(url) ?? new Set()).add(method as HTTPMethods));
  }
  return byPath;
}
