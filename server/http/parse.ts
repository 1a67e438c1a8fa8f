import type { z } from 'zod';
import { formatIssues } from '../../contract';
import { HttpError } from './errors';

/** The value as the schema reads it, or a 400 naming every field at fault. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * A route's JSON body as the schema reads it. No body at all reads as `{}`, so the schema names
 * what is missing; a body that is there, `null` included, is read as sent (and refused as a body).
 */
export const parseBodyOrThrow = <S extends z.ZodType>(schema: S, body: unknown): z.infer<S> =>
  parseOrThrow(schema, body === undefined ? {} : body);

const noRouteSchemas = () => () => {
  throw new Error('route JSON schemas are not used here: parse with the contract (parseOrThrow)');
};

/**
 * Bodies are read with the contract's zod schemas (parseOrThrow), never with route JSON schemas,
 * so Fastify's Ajv and fast-json-stringify compilers are never built: the compiled service leaves
 * them out (scripts/build.ts). A route that declares a JSON schema fails when it is added.
 */
export const ZOD_ONLY = {
  schemaController: {
    compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas },
  },
};
