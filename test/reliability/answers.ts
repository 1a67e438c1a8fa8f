import { expect } from 'vitest';
import { errorBodySchema } from '../../contract';

/**
 * A stack frame (`at fn (file.ts:1:2)`, `at file.ts:1:2`) or an error class name at the start of
 * a message; a message's own words ("at least one word … 10:00:00") are not a frame.
 */
const STACK_TRACE =
  /\n\s+at \S|\bat \S+ \(\S+:\d+:\d+\)|\bat \S+:\d+:\d+|^(Type|Reference|Syntax|Range)?Error:/m;

/** Tallies statuses of a run by class, for its figures. */
export class StatusTally {
  readonly counts = { '2xx': 0, '4xx': 0, '5xx': 0, other: 0 };

  add(status: number): void {
    const kind =
      status >= 200 && status < 300
        ? '2xx'
        : status >= 400 && status < 500
          ? '4xx'
          : status >= 500
            ? '5xx'
            : 'other';
    this.counts[kind] += 1;
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}

/**
 * Every error the service sends: exactly `{ ok: false, message }`, a message that is a sentence
 * about a field (or the request), and no stack trace. Returns the message.
 */
export function expectErrorEnvelope(text: string, context: string): string {
  const body: unknown = JSON.parse(text);
  const parsed = errorBodySchema.strict().safeParse(body);
  expect(parsed.success, `${context}: not { ok: false, message }: ${text.slice(0, 300)}`).toBe(
    true,
  );
  const message = parsed.data!.message;
  expect(message, context).not.toMatch(STACK_TRACE);
  expect(message.length, context).toBeGreaterThan(0);
  return message;
}
