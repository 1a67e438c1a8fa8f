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

/**
 * Well-formed text without NUL, as a JSON Schema pattern (no flags: zod-to-openapi would write them
 * into it). A valid surrogate pair matches the second branch without the `u` flag, the first with
 * it, so the pattern means the same to any ECMA-262 validator.
 */
export const WELL_FORMED_TEXT = '(?:[^\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])';

const PLAIN_TEXT = new RegExp(`^${WELL_FORMED_TEXT}*$`);
/** The same, holding more than spaces (text that is trimmed and must not be empty). */
export const NON_BLANK_TEXT = new RegExp(
  `^${WELL_FORMED_TEXT}*(?:[^\\s\\u0000\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])${WELL_FORMED_TEXT}*$`,
);

/**
 * Text without NUL and well-formed, each refused with its own reason; the pattern (one per
 * schema in the document), which then holds unless it says more, says both.
 */
export function plainText(
  text: z.ZodString,
  pattern = PLAIN_TEXT,
  message: string = withoutNul[1],
) {
  return text
    .refine(withoutNul[0], { message: withoutNul[1], abort: true })
    .refine(wellFormed[0], { message: wellFormed[1], abort: true })
    .regex(pattern, message);
}

/**
 * At most `maxBytes` of UTF-8. The document says it as maxLength (a string within the bytes is
 * within as many UTF-16 units, so the check never refuses more) and says the bytes in words.
 */
export function boundedString(maxBytes: number) {
  return plainText(
    z.string({ error: 'must be a string' }).max(maxBytes, `must be at most ${maxBytes} bytes`),
  )
    .refine((text) => byteLength(text) <= maxBytes, `must be at most ${maxBytes} bytes`)
    .meta({ description: `At most ${maxBytes} bytes of UTF-8, without NUL` });
}

/**
 * What a record's keys and count must be, for the document: zod-to-openapi writes a record's
 * values but neither its key schema nor a refined size, so both are said here from the schemas
 * that check them.
 */
export function recordKeysMeta(key: z.ZodType, maxKeys: number) {
  const propertyNames = z.toJSONSchema(key, { io: 'input' });
  delete propertyNames.$schema; // the document's own dialect applies
  return { propertyNames, maxProperties: maxKeys };
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
