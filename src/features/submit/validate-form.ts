import type { z } from 'zod';
import {
  arraySchema,
  DEFINITION_REF,
  dependsOnSchema,
  ENV_NAME,
  SUBMIT_FORM_MESSAGES,
  IDENTIFIER_MESSAGES,
  JOB_NAME,
  LABEL_KEY,
  LABEL_KEY_MESSAGE,
  LABEL_LIMITS,
  QUEUE_REF,
  formatIssues,
  paramKeyOf,
  retryStrategySchema,
  submitJobSchema,
} from '../../../contract';
import {
  definedParameterKeys,
  errorsFromMessage,
  payloadFromForm,
  scheduleInstant,
  type FieldErrors,
  type SubmitFormValues,
} from './form-model';
import { numberOf, retryFromForm } from './retry-model';

/** A section's value checked by its own schema: each fault at its control, or the form's when none. */
function addSectionFaults(
  errors: FieldErrors,
  values: SubmitFormValues,
  field: string,
  schema: z.ZodType,
  value: unknown,
) {
  const checked = schema.safeParse(value);
  if (checked.success) return;
  const issues = checked.error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }));
  const { fields, general } = errorsFromMessage(formatIssues(issues), values);
  Object.assign(errors, fields);
  if (general.length > 0) errors.root = [errors.root, ...general].filter(Boolean).join('; ');
}

/** Rows whose keys must be unique (a JSON object holds each once): faults at each row's key. */
function checkRowKeys(
  errors: FieldErrors,
  rows: { key: string }[],
  section: 'parameters' | 'labels' | 'env',
  keyField: 'key' | 'name',
  noun: string,
  reasonOf: (key: string) => string | undefined,
) {
  const seen = new Set<string>();
  rows.forEach(({ key }, index) => {
    const reason = !key
      ? SUBMIT_FORM_MESSAGES.required
      : (reasonOf(key) ?? (seen.has(key) ? SUBMIT_FORM_MESSAGES.duplicate(noun, key) : undefined));
    if (reason) errors[`${section}.${index}.${keyField}`] = reason;
    seen.add(key);
  });
}

/** The array's size as the contract checks it; the person's text, not a number, stays NaN. */
export const arraySizeProblem = (typed: string): string | undefined => {
  const size = numberOf(typed);
  if (size === undefined) return undefined;
  const checked = arraySchema.safeParse({ size });
  return checked.success ? undefined : checked.error.issues[0]?.message;
};

/**
 * Checks the contract cannot express (duplicate keys, references, a secret left blank), then the
 * contract itself: its messages, not copies of them.
 */
export function validateForm(values: SubmitFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.job_definition.trim()) errors.job_definition = SUBMIT_FORM_MESSAGES.required;
  else if (!DEFINITION_REF.test(values.job_definition.trim())) {
    errors.job_definition = IDENTIFIER_MESSAGES.definitionRef;
  }
  if (!values.job_queue.trim()) errors.job_queue = SUBMIT_FORM_MESSAGES.required;
  else if (!QUEUE_REF.test(values.job_queue.trim()))
    errors.job_queue = IDENTIFIER_MESSAGES.queueRef;
  const name = values.name.trim();
  if (name && !JOB_NAME.test(name)) errors.name = IDENTIFIER_MESSAGES.jobName;

  const keys = definedParameterKeys(values);
  values.command.forEach(({ word }, index) => {
    const key = paramKeyOf(word);
    if (key !== null && !keys.has(key)) {
      errors[`command.${index}.word`] =
        `refers to parameter "${key}", which the parameters below do not define`;
    }
  });
  checkRowKeys(errors, values.parameters, 'parameters', 'key', 'key', () => undefined);
  checkRowKeys(
    errors,
    values.labels.map(({ key }) => ({ key: key.trim() })),
    'labels',
    'key',
    'label',
    (key) =>
      key.length > LABEL_LIMITS.keyMaxLength || !LABEL_KEY.test(key)
        ? LABEL_KEY_MESSAGE
        : undefined,
  );
  checkRowKeys(
    errors,
    values.env.map(({ name: key }) => ({ key })),
    'env',
    'name',
    'variable',
    (key) => (ENV_NAME.test(key) ? undefined : IDENTIFIER_MESSAGES.envName),
  );
  values.env.forEach(({ value, sensitive }, index) => {
    // A secret blanked by "Submit again" or Retry (the service never sends one back) would run as
    // an empty value nobody typed: the person types it again, or removes the variable.
    if (sensitive && value === '')
      errors[`env.${index}.value`] =
        'is empty: type the secret again (sensitive values are never kept), or remove the variable';
  });
  if (values.scheduleMode === 'datetime' && !scheduleInstant(values))
    errors.scheduleLocal = 'pick a date and time';
  if (values.scheduleMode === 'unix') {
    const seconds = Number(values.scheduleUnix);
    if (values.scheduleUnix.trim() === '' || !Number.isFinite(seconds))
      errors.scheduleUnix = 'enter Unix seconds';
  }
  // The extensions' sections show their own faults at once, with the rest of the form's.
  const retry = retryFromForm(values.retry);
  if (retry) addSectionFaults(errors, values, 'retry', retryStrategySchema, retry);
  const dependsOn = payloadFromForm(values).depends_on;
  if (dependsOn) addSectionFaults(errors, values, 'depends_on', dependsOnSchema, dependsOn);
  const arraySize = arraySizeProblem(values.arraySize);
  if (arraySize) errors.arraySize = arraySize;
  if (Object.keys(errors).length > 0) return errors;

  const parsed = submitJobSchema.safeParse(payloadFromForm(values));
  if (!parsed.success) {
    const { fields, general } = errorsFromMessage(formatIssues(parsed.error.issues), values);
    Object.assign(errors, fields);
    if (general.length > 0) errors.root = general.join('; ');
  }
  return errors;
}
