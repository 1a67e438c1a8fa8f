import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { formatIssues } from '../../contract';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's query parameters, as a contract schema (the OpenAPI document's source). Left
     * out, the route takes none.
     */
    query?: z.ZodType;
  }
}

/** What a route that declares no query schema takes: nothing. */
const NO_QUERY = z.strictObject({});

/** For routes that answer whatever the query holds: the 405s, an identity provider's redirect. */
export const ANY_QUERY = z.looseObject({});

/** A route's generic for the query its schema reads: `app.get<Query<typeof schema>>(…)`. */
export type Query<S extends z.ZodType> = { Querystring: z.output<S> };

type Issue = z.core.$ZodIssue;

/**
 * Issues said as a query's: an unknown key is a parameter the endpoint lacks, and a value that
 * does not fit, of a parameter given more than once, was meant to be given once (a list type
 * takes the repeats as its items and never reaches this).
 */
function asQueryIssues(issues: readonly Issue[], repeated: ReadonlySet<PropertyKey>): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        code: 'custom',
        path: [...issue.path, key],
        message: 'is not a parameter of this endpoint',
        input: undefined,
      }));
    }
    const [name] = issue.path;
    const wrongValue = issue.code === 'invalid_type' || issue.code === 'invalid_value';
    if (issue.path.length === 1 && repeated.has(name!) && wrongValue) {
      return [{ ...issue, message: 'must be given once' }];
    }
    return [issue];
  });
}

/** The query as the schema reads it, or a 400 naming every parameter at fault. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const given = Object.entries((query ?? {}) as Record<string, unknown>);
  const repeated = new Set(given.filter(([, value]) => Array.isArray(value)).map(([key]) => key));
  throw new HttpError(400, formatIssues(asQueryIssues(parsed.error.issues, repeated)));
}

/**
 * Every route registered after this, in this scope and the ones inside it, reads its query with
 * the schema it declares (`config.query`) before its handler runs, and `request.query` is what
 * the schema made of it; a route that declares none takes no parameter. One rule where routes
 * are declared, so that a new route cannot forget it. It runs as the route's last preHandler:
 * after authentication, roles and the rate limit, like the body's checks in the handlers.
 */
export function enforceQuerySchemas(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.config?.query ?? NO_QUERY;
    const readQuery: preHandlerHookHandler = async (request) => {
      request.query = parseQuery(schema, request.query);
    };
    route.preHandler = [...[route.preHandler ?? []].flat(), readQuery];
  });
}
