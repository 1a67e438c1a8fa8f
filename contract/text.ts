import { z } from 'zod';

/** Rules every free-text field of a request shares: NUL bytes, surrogates, sizes, reserved keys. */

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

/**
 * A NUL byte cannot reach a process: argv and environ are C strings, so the engine refuses the
 * container (and quotes the entry in its error). Refused here, at the field, instead.
 */
export const withoutNul = [
  (text: string) => !text.includes('\0'),
  'must not contain NUL bytes',
] as const;

/**
 * JSON can spell a lone surrogate (`"\ud800"`), which no UTF-8 can carry: it would reach the
 * container (or the sealed store) as U+FFFD, a different value than the one submitted.
 */
export const wellFormed = [
  (text: string) => !/[\uD800-\uDFFF]/u.test(text),
  'must be well-formed Unicode (no lone surrogate \\uD800–\\uDFFF)',
] as const;

export function boundedString(maxBytes: number) {
  return z
    .string({ error: 'must be a string' })
    .refine(...withoutNul)
    .refine(...wellFormed)
    .refine((text) => byteLength(text) <= maxBytes, `must be at most ${maxBytes} bytes`);
}

/**
 * Keys that JavaScript objects treat specially. JSON.parse keeps `"__proto__"` as an own key, but
 * zod's records skip it (so a variable of that name vanished without a word) and assigning it
 * anywhere sets a prototype. Refused by name, before the record ever copies the object.
 */
export const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export function refusingReservedKeys<T extends z.ZodType>(record: T) {
  return z.preprocess((value, context) => {
    if (value === null || typeof value !== 'object') return value;
    for (const key of RESERVED_KEYS) {
      if (Object.hasOwn(value, key)) {
        context.issues.push({
          code: 'custom',
          message: `is a reserved name (${RESERVED_KEYS.join(', ')} are not allowed as keys)`,
          path: [key],
          input: value,
        });
      }
    }
    return value;
  }, record);
}

/** A record with at most `max` keys, saying what they are when there are more. */
export const atMostKeys = (max: number, what: string) =>
  [
    (map: Record<string, unknown>) => Object.keys(map).length <= max,
    `must have at most ${max} ${what}`,
  ] as const;
