import { z } from 'zod';
import { atMostKeys, boundedString, refusingReservedKeys, wellFormed, withoutNul } from './text';

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
    .refine(...atMostKeys(LABEL_LIMITS.max, 'labels')),
);
export type Labels = Record<string, string>;

/** A list filter: a label with this value (`key=value`), or any value (`key`). */
export interface LabelSelector {
  key: string;
  value?: string;
}

const SELECTOR_MESSAGE = `must be key=value or key, where a key is a letter or digit, then letters, digits, '.', '_', '/' or '-' (at most ${LABEL_LIMITS.keyMaxLength} characters)`;

/** `team=data` or `team`; split at the first '=', so a value may hold one. */
export const labelSelectorSchema = z
  .string()
  .refine(...withoutNul)
  .refine(...wellFormed)
  .transform((text, context): LabelSelector => {
    const at = text.indexOf('=');
    const key = at < 0 ? text : text.slice(0, at);
    if (key.length > LABEL_LIMITS.keyMaxLength || !LABEL_KEY.test(key)) {
      context.addIssue({ code: 'custom', message: SELECTOR_MESSAGE });
      return z.NEVER;
    }
    return at < 0 ? { key } : { key, value: text.slice(at + 1) };
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
