import { z } from 'zod';

export const errorBodySchema = z.object({ ok: z.literal(false), message: z.string() });

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ ok: z.literal(true), data });
}

export const acceptedBodySchema = z.object({ ok: z.literal(true) });
