import { z } from 'zod';
import { plainText } from './text';

export const PAUSE_REASON_MAX_LENGTH = 200;

/** Pausing a schedule or a queue: an optional reason, shown while it stays paused. */
export const pauseRequestSchema = z.strictObject(
  {
    reason: plainText(
      z
        .string({ error: 'must be a string' })
        .max(PAUSE_REASON_MAX_LENGTH, `must be at most ${PAUSE_REASON_MAX_LENGTH} characters`),
    ).optional(),
  },
  { error: 'body must be a JSON object like { "reason": "…" }' },
);
export type PauseRequest = z.infer<typeof pauseRequestSchema>;
