import { z } from 'zod';
import {
  WELL_FORMED_TEXT,
  atMostKeys,
  boundedString,
  recordKeysMeta,
  refusingReservedKeys,
  wellFormed,
  withoutNul,
} from './text';

/**
 * Extension: labels a person puts on a job to find it later (the ticket, the dataset, the
 * release). Keys are short names; values are free text, bounded.
 */
export const LABEL_LIMITS = { max: 16, keyMaxLength: 63, valueMaxBytes: 256, filtersMax: 4 };

export const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
export const LABEL_KEY_MESSAGE = `is not a valid label key (a letter or digit, then letters, digits, '.', '_', '/' or '-'; at most ${LABEL_LIMITS.keyMaxLength} characters)`;

const labelKey = z
  .string()
  .max(LABEL_LIMITS.keyMaxLength, LABEL_KEY_MESSAGE)
  .regex(LABEL_KEY, LABEL_KEY_MESSAGE);

export const labelsSchema = refusingReservedKeys(
  z
    .record(labelKey, boundedString(LABEL_LIMITS.valueMaxBytes), {
      error: 'must be an object of string values, like { "ticket": "OPS-42" }',
    })
    .refine(...atMostKeys(LABEL_LIMITS.max, 'labels'))
    .meta(recordKeysMeta(labelKey, LABEL_LIMITS.max)),
);
export type Labels = Record<string, string>;

/** A list filter: a label with this value (`key=value`), or any value (`key`). */
export interface LabelSelector {
  key: string;
  value?: string;
}

const SELECTOR_MESSAGE = `must be key=value or key, where a key is a letter or digit, then letters, digits, '.', '_', '/' or '-' (at most ${LABEL_LIMITS.keyMaxLength} characters)`;

/**
 * `team=data` or `team`, as one pattern (the document's): a key, then `=` and any well-formed
 * text without NUL; split at the first '=', so a value may hold one.
 */
const LABEL_SELECTOR = new RegExp(
  `^[A-Za-z0-9][A-Za-z0-9._/-]{0,${LABEL_LIMITS.keyMaxLength - 1}}(?:=${WELL_FORMED_TEXT}*)?$`,
);

export const labelSelectorSchema = z
  .string()
  // The narrower reasons first: the message says the one that applies.
  .refine(withoutNul[0], { message: withoutNul[1], abort: true })
  .refine(wellFormed[0], { message: wellFormed[1], abort: true })
  .regex(LABEL_SELECTOR, SELECTOR_MESSAGE)
  .transform((text): LabelSelector => {
    const at = text.indexOf('=');
    return at < 0 ? { key: text } : { key: text.slice(0, at), value: text.slice(at + 1) };
  });

/** `?label=a=1&label=b`: repeated, never split at commas (a value may hold one). */
export const labelSelectorsSchema = z.preprocess(
  (value) => [value].flat(),
  z
    .array(labelSelectorSchema)
    .max(LABEL_LIMITS.filtersMax, `must be given at most ${LABEL_LIMITS.filtersMax} times`),
);

/** A selector from its `label` query text; undefined when it is not one. */
export function parseLabelSelector(text: string): LabelSelector | undefined {
  const parsed = labelSelectorSchema.safeParse(text);
  return parsed.success ? parsed.data : undefined;
}

/** Whether a job's labels match a selector. */
export const matchesLabel = (labels: Labels | undefined, { key, value }: LabelSelector) =>
  labels !== undefined &&
  Object.hasOwn(labels, key) &&
  (value === undefined || labels[key] === value);

/** The `label` query value of a selector. */
export const labelSelectorText = ({ key, value }: LabelSelector) =>
  value === undefined ? key : `${key}=${value}`;
