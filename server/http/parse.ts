import type { z } from 'zod';
import { formatIssues } from '../../contract';
import { HttpError } from './errors';

/** The value as the schema reads it, or a 400 naming every field at fault. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error.issues));
  return parsed.data;
}
