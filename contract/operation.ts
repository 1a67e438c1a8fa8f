import { z } from 'zod';
import { errorBodySchema, successEnvelope } from './envelope';
import type { Role } from './roles';

/** What an operation answers with one status: a description and, but for a bare one, a body. */
export interface Answer {
  description: string;
  content?: Record<string, { schema: z.ZodType }>;
}

/**
 * One HTTP operation, declared once in its feature's contract file: the OpenAPI document, the
 * role table, the service's route and the console's path all read this declaration.
 */
export interface Operation {
  /** The OpenAPI operationId. */
  id: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As documented: `/v1/client/job/{job_id}`. */
  path: string;
  /** The role a key or member needs; null: not a client operation (the console's sign-in). */
  role: Role | null;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  /** The query parameters; left out, the operation takes none (server/http/query-rule.ts). */
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { schema: z.ZodType; required: boolean };
  /** Schemas an answer names only in words (an event's data): components of their own. */
  components?: Readonly<Record<string, z.ZodType>>;
  answers: Readonly<Record<number, Answer>>;
}

/**
 * A feature's operations, each under its own id (the console names them so); their literal
 * types let a route's handler and the console infer parameters.
 */
export const defineOperations = <const T extends { [K in keyof T]: Operation & { id: K } }>(
  operations: T,
): T => operations;

export const json = (schema: z.ZodType, description: string): Answer => ({
  description,
  content: { 'application/json': { schema } },
});

/** A 2xx whose body is the envelope around `data`. */
export const ok = (data: z.ZodType, description: string): Answer =>
  json(successEnvelope(data), description);

const errorSchema = errorBodySchema.meta({ id: 'Error' });

/** An error answer `{ ok: false, message }`, described for this operation. */
export const failure = (description: string): Answer => json(errorSchema, description);

/** The answers most client operations share, described once. */
const COMMON_ERRORS = {
  400: failure('Bad body or reference; the message names the field and the reason'),
  401: failure('Missing, unknown or revoked API key'),
  404: failure('No such job in this API key’s project'),
  429: failure('Rate limit; see Retry-After'),
} as const;

/** The shared answers for these statuses: `...errors(401, 429)`. */
export const errors = (...statuses: (keyof typeof COMMON_ERRORS)[]) =>
  Object.fromEntries(statuses.map((status) => [status, COMMON_ERRORS[status]]));

/** A request body of JSON. */
export const jsonBody = (schema: z.ZodType, required = true) => ({ schema, required });

/** A documented path with its parameters filled in, each percent-encoded. */
export function pathOf(operation: Pick<Operation, 'path'>, params: Record<string, string> = {}) {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
