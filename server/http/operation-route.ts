import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { RawReplyDefaultExpression, RawRequestDefaultExpression } from 'fastify';
import type { RawServerDefault } from 'fastify';
import type { z } from 'zod';
import type { Operation } from '../../contract/operation';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's declaration the route serves (its role: route-roles.ts). */
    operation?: Operation;
  }
}

/** The path parameters as they arrive: strings, which a handler reads with the schema. */
type ParamsOf<O> = O extends { params: z.ZodType } ? z.input<O['params']> : unknown;
/** The query as its schema made it (query-rule.ts). */
type QueryOf<O> = O extends { query: z.ZodType } ? z.output<O['query']> : unknown;
type RequestOf<O> = { Params: ParamsOf<O>; Querystring: QueryOf<O> };

/** How Fastify writes a documented path: `:job_id`, not `{job_id}`. */
export const routePath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers the route of one operation of the contract's table, at its method and path, with
 * its query schema; the role check reads its role from the same declaration.
 */
export function operationRoute<O extends Operation>(
  app: FastifyInstance,
  operation: O,
  handler: RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RequestOf<O>
  >,
): void {
  app.route<RequestOf<O>>({
    method: operation.method.toUpperCase(),
    url: routePath(operation.path),
    config: { operation, ...(operation.query && { query: operation.query }) },
    handler,
  });
}
