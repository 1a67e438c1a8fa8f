import type { Control, FieldErrors as FormErrors, UseFormRegister } from 'react-hook-form';
import type { z } from 'zod';
import {
  ARRAY_LIMITS,
  DEFINITION_REF,
  dependsOnSchema,
  type DependencyType,
  ENV_NAME,
  IDENTIFIER_MESSAGES,
  JOB_NAME,
  LABEL_KEY,
  LABEL_KEY_MESSAGE,
  LABEL_LIMITS,
  QUEUE_REF,
  fieldErrorsOf,
  formatIssues,
  paramKeyOf,
  isJobDependencyType,
  retryStrategySchema,
  type RetryAction,
  type RetryReason,
  type RetryStrategy,
  type JobExecution,
  submitJobSchema,
  type SubmitJobRequest,
} from '../../../contract';
import { dayjs } from '../../lib/time';

export type ScheduleMode = 'none' | 'datetime' | 'unix';

/** One rule of `retry.on_exit`: each matcher given must match (empty ones are left out). */
export interface RetryRuleValues {
  /** `137, 1-5`: exit codes and ranges, separated by commas or spaces. */
  exitCodes: string;
  reason: '' | RetryReason;
  /** A glob on the engine's status text. */
  status: string;
  action: RetryAction;
}

/** The retry strategy as typed: empty numbers are left out (the service's defaults apply). */
export interface RetryValues {
  attempts: string;
  initialSeconds: string;
  factor: string;
  maxSeconds: string;
  jitter: string;
  rules: RetryRuleValues[];
}

export const emptyRetry = (): RetryValues => ({
  attempts: '',
  initialSeconds: '',
  factor: '',
  maxSeconds: '',
  jitter: '',
  rules: [],
});

export const emptyRule = (): RetryRuleValues => ({
  exitCodes: '',
  reason: '',
  status: '',
  action: 'retry',
});

/** One job of `depends_on`: its id as typed, and what this job waits for it to do. */
export interface DependencyValues {
  jobId: string;
  type: DependencyType;
}

/** A row of the Dependencies section; afterok is the service's default. */
export const emptyDependency = (jobId = ''): DependencyValues => ({ jobId, type: 'afterok' });

export interface SubmitFormValues {
  job_definition: string;
  job_queue: string;
  name: string;
  /** Empty: the definition's own command runs. */
  command: { word: string }[];
  parameters: { key: string; value: string }[];
  env: { name: string; value: string; sensitive: boolean }[];
  scheduleMode: ScheduleMode;
  /** Local wall-clock time, `YYYY-MM-DD HH:mm:ss`, as the date-time picker gives it. */
  scheduleLocal: string | null;
  scheduleUnix: string;
  /** Left empty, the submission says nothing of retries: its definition's strategy applies. */
  retry: RetryValues;
  /** No rows: the submission says nothing of dependencies and the job waits for none. */
  dependsOn: DependencyValues[];
  /** How many children, as typed; empty: the job runs once, as one job. */
  arraySize: string;
  /** No rows: the submission has no labels. */
  labels: { key: string; value: string }[];
}

export const emptyForm = (): SubmitFormValues => ({
  job_definition: '',
  job_queue: '',
  name: '',
  command: [],
  parameters: [],
  env: [],
  scheduleMode: 'none',
  scheduleLocal: null,
  scheduleUnix: '',
  retry: emptyRetry(),
  dependsOn: [],
  arraySize: '',
  labels: [],
});

/** What each section editor of the form gets. */
export interface SectionEditorProps {
  control: Control<SubmitFormValues>;
  register: UseFormRegister<SubmitFormValues>;
  errors: FormErrors<SubmitFormValues>;
}

/** Field path (react-hook-form style, `command.2.word`) → message. */
export type FieldErrors = Record<string, string>;

export function definedParameterKeys(values: SubmitFormValues): Set<string> {
  return new Set(values.parameters.map((p) => p.key).filter((key) => key !== ''));
}

/** The UTC instant the schedule fields describe, or null (none, or not a valid entry). */
export function scheduleInstant(values: SubmitFormValues): Date | null {
  if (values.scheduleMode === 'datetime' && values.scheduleLocal) {
    const local = dayjs(values.scheduleLocal);
    return local.isValid() ? local.toDate() : null;
  }
  if (values.scheduleMode === 'unix' && values.scheduleUnix.trim() !== '') {
    const seconds = Number(values.scheduleUnix);
    return Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
  }
  return null;
}

const BACKOFF_FIELDS = [
  ['initialSeconds', 'initial_seconds'],
  ['factor', 'factor'],
  ['maxSeconds', 'max_seconds'],
  ['jitter', 'jitter'],
] as const;

/** Whether the person set anything of the strategy: only then does the body carry `retry`. */
export function retryIsSet(retry: RetryValues): boolean {
  return (
    retry.attempts.trim() !== '' ||
    BACKOFF_FIELDS.some(([field]) => retry[field].trim() !== '') ||
    retry.rules.length > 0
  );
}

/** A typed number; left out when empty. Not a number: NaN, which the schema names. */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));

/** `137, 1-5` → `[137, "1-5"]`; what is not a code stays text, for the schema to name. */
const exitCodesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter((word) => word !== '')
    .map((word) => (/^\d+$/.test(word) ? Number(word) : word));

/** The strategy the fields describe, as sent; undefined when nothing of it is set. */
export function retryFromForm(retry: RetryValues): RetryStrategy | undefined {
  if (!retryIsSet(retry)) return undefined;
  // Attempts left empty with the rest set: sent without, for the schema to say it is required.
  const strategy = { attempts: numberOf(retry.attempts) } as RetryStrategy;
  const backoff: NonNullable<RetryStrategy['backoff']> = {};
  for (const [field, key] of BACKOFF_FIELDS) {
    const value = numberOf(retry[field]);
    if (value !== undefined) backoff[key] = value;
  }
  if (Object.keys(backoff).length > 0) strategy.backoff = backoff;
  if (retry.rules.length > 0) {
    strategy.on_exit = retry.rules.map((rule) => {
      const codes = exitCodesOf(rule.exitCodes);
      return {
        ...(codes.length > 0 && { exit_codes: codes }),
        ...(rule.reason && { reason: rule.reason }),
        ...(rule.status !== '' && { status: rule.status }),
        action: rule.action,
      };
    });
  }
  return strategy;
}

/** The fields for a strategy (of a payload submitted before, or imported). */
export function retryToForm(strategy: RetryStrategy | undefined): RetryValues {
  if (!strategy) return emptyRetry();
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return {
    attempts: text(strategy.attempts),
    initialSeconds: text(strategy.backoff?.initial_seconds),
    factor: text(strategy.backoff?.factor),
    maxSeconds: text(strategy.backoff?.max_seconds),
    jitter: text(strategy.backoff?.jitter),
    rules: (strategy.on_exit ?? []).map((rule) => ({
      exitCodes: (rule.exit_codes ?? []).join(', '),
      reason: rule.reason ?? '',
      status: rule.status ?? '',
      action: rule.action,
    })),
  };
}

/** The request body the form describes. Empty optional parts are left out, as the spec allows. */
export function payloadFromForm(values: SubmitFormValues): SubmitJobRequest {
  const payload: SubmitJobRequest = {
    job_definition: values.job_definition.trim(),
    job_queue: values.job_queue.trim(),
  };
  if (values.name.trim()) payload.name = values.name.trim();
  if (values.command.length > 0) payload.container_cmd = values.command.map((c) => c.word);
  if (values.parameters.length > 0) {
    payload.container_cmd_parameter = Object.fromEntries(
      values.parameters.map((p) => [p.key, p.value]),
    );
  }
  if (values.env.length > 0) {
    payload.container_env = Object.fromEntries(
      values.env.map((e) => [
        e.name,
        e.sensitive ? { value: e.value, sensitive: true } : { value: e.value },
      ]),
    );
  }
  if (values.scheduleMode === 'datetime' && values.scheduleLocal) {
    const instant = scheduleInstant(values);
    if (instant) payload.schedule_at = instant.toISOString();
  }
  if (values.scheduleMode === 'unix' && values.scheduleUnix.trim() !== '') {
    payload.schedule_at = Number(values.scheduleUnix);
  }
  const retry = retryFromForm(values.retry);
  if (retry) payload.retry = retry;
  // The type is sent even when it is the default: the body (and its preview) says what it means.
  if (values.dependsOn.length > 0)
    payload.depends_on = values.dependsOn.map((d) => ({ job_id: d.jobId.trim(), type: d.type }));
  const arraySize = numberOf(values.arraySize);
  if (arraySize !== undefined) payload.array = { size: arraySize };
  if (values.labels.length > 0) {
    payload.labels = Object.fromEntries(values.labels.map((l) => [l.key.trim(), l.value]));
  }
  return payload;
}

export function formFromPayload(payload: SubmitJobRequest): SubmitFormValues {
  const schedule = payload.schedule_at;
  return {
    job_definition: payload.job_definition,
    job_queue: payload.job_queue,
    name: payload.name ?? '',
    command: (payload.container_cmd ?? []).map((word) => ({ word })),
    parameters: keyValueRows(payload.container_cmd_parameter),
    env: Object.entries(payload.container_env ?? {}).map(([name, entry]) => ({
      name,
      value: entry.value,
      sensitive: entry.sensitive ?? false,
    })),
    scheduleMode:
      schedule === undefined ? 'none' : typeof schedule === 'number' ? 'unix' : 'datetime',
    scheduleLocal:
      typeof schedule === 'string' ? dayjs(schedule).format('YYYY-MM-DD HH:mm:ss') : null,
    scheduleUnix: typeof schedule === 'number' ? String(schedule) : '',
    retry: retryToForm(payload.retry),
    // The form edits a job's own dependencies; an array's n_to_n and sequential are not in it.
    dependsOn: (payload.depends_on ?? []).flatMap((d) => {
      const type = d.type ?? 'afterok';
      return d.job_id !== undefined && isJobDependencyType(type) ? [{ jobId: d.job_id, type }] : [];
    }),
    arraySize: payload.array ? String(payload.array.size) : '',
    labels: keyValueRows(payload.labels),
  };
}

const keyValueRows = (map: Record<string, string> | undefined) =>
  Object.entries(map ?? {}).map(([key, value]) => ({ key, value }));

/**
 * A job of any origin submitted again, from what ran: the command as run (its `Param::` words
 * already substituted), every variable it had, and an array's size for a parent. A sensitive
 * value is never sent back, so it comes empty, marked sensitive, for the person to type again; a
 * new name is generated.
 */
export function formFromExecution(
  execution: JobExecution,
  arraySize: number | null = null,
): SubmitFormValues {
  return {
    ...emptyForm(),
    job_definition: execution.job_definition,
    job_queue: execution.job_queue,
    command: execution.command.map((word) => ({ word })),
    env: execution.env.map(({ name, sensitive, value }) => ({
      name,
      value: sensitive ? '' : (value ?? ''),
      sensitive,
    })),
    arraySize: arraySize === null ? '' : String(arraySize),
    labels: keyValueRows(execution.labels),
  };
}

/**
 * Maps a field named in a contract message (`container_cmd[2]`, `container_env.TOKEN.value`)
 * to the form control that holds it; null when it names no single control.
 */
export function formFieldOf(field: string, values: SubmitFormValues): string | null {
  if (field === 'job_definition' || field === 'job_queue' || field === 'name') return field;
  const word = /^container_cmd\[(\d+)\]$/.exec(field);
  if (word) return `command.${word[1]}.word`;
  if (field === 'container_cmd') return 'command';
  const param = /^container_cmd_parameter\.(.+)$/.exec(field);
  if (param) {
    const index = values.parameters.findIndex((p) => p.key === param[1]);
    return index >= 0 ? `parameters.${index}.value` : 'parameters';
  }
  const env = /^container_env\.([^.]+)(?:\.(value|sensitive))?$/.exec(field);
  if (env) {
    const index = values.env.findIndex((e) => e.name === env[1]);
    if (index < 0) return 'env';
    return `env.${index}.${env[2] ?? 'name'}`;
  }
  if (field === 'schedule_at')
    return values.scheduleMode === 'unix' ? 'scheduleUnix' : 'scheduleLocal';
  if (field.startsWith('depends_on')) return dependencyFieldOf(field, values);
  if (field === 'array' || field === 'array.size') return 'arraySize';
  if (field === 'labels') return 'labels';
  const label = /^labels\.(.+)$/.exec(field);
  if (label) {
    const index = values.labels.findIndex((l) => l.key.trim() === label[1]);
    return index >= 0 ? `labels.${index}.value` : 'labels';
  }
  return retryFieldOf(field, values);
}

/**
 * `depends_on[2].job_id` (the service's refusal of a job it does not know), `depends_on[2].type`:
 * that row's control; a fault of a whole row shows at its job id, one of the list under the list.
 */
function dependencyFieldOf(field: string, values: SubmitFormValues): string | null {
  if (field === 'depends_on') return 'dependsOn';
  const row = /^depends_on\[(\d+)\](?:\.(job_id|type))?$/.exec(field);
  if (!row) return null;
  const index = Number(row[1]);
  if (index >= values.dependsOn.length) return 'dependsOn';
  return `dependsOn.${index}.${row[2] === 'type' ? 'type' : 'jobId'}`;
}

const RULE_FIELDS = {
  exit_codes: 'exitCodes',
  reason: 'reason',
  status: 'status',
  action: 'action',
} as const;

/**
 * `retry.attempts`, `retry.backoff.factor`, `retry.on_exit[0].exit_codes[1]`: the control of the
 * retries section that holds it. A fault of a whole rule (no matcher) shows at its exit codes.
 */
function retryFieldOf(field: string, values: SubmitFormValues): string | null {
  if (field === 'retry.attempts') return 'retry.attempts';
  const backoff = /^retry\.backoff\.(\w+)$/.exec(field);
  if (backoff) {
    const control = BACKOFF_FIELDS.find(([, key]) => key === backoff[1])?.[0];
    return control ? `retry.${control}` : null;
  }
  if (field === 'retry.on_exit') return 'retry.rules';
  const rule = /^retry\.on_exit\[(\d+)\](?:\.(exit_codes|reason|status|action)(?:\[\d+\])?)?$/.exec(
    field,
  );
  if (!rule) return null;
  const index = Number(rule[1]);
  if (index >= values.retry.rules.length) return 'retry.rules';
  return `retry.rules.${index}.${RULE_FIELDS[(rule[2] ?? 'exit_codes') as keyof typeof RULE_FIELDS]}`;
}

/** Splits a `field: reason; …` message onto form controls; what names no control stays general. */
export function errorsFromMessage(
  message: string,
  values: SubmitFormValues,
): { fields: FieldErrors; general: string[] } {
  const fields: FieldErrors = {};
  const general: string[] = [];
  const parts = fieldErrorsOf(message);
  if (parts.length === 0) return { fields, general: [message] };
  for (const { field, reason } of parts) {
    const target = formFieldOf(field, values);
    if (target && !fields[target]) fields[target] = reason;
    else general.push(`${field}: ${reason}`);
  }
  return { fields, general };
}

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

const { minSize, maxSize } = ARRAY_LIMITS;
export const isArraySize = (size: number) =>
  Number.isInteger(size) && size >= minSize && size <= maxSize;
/** Says which field and what it takes: read out alone, it still makes sense. */
export const ARRAY_SIZE_MESSAGE = `Array size must be a whole number from ${minSize} to ${maxSize.toLocaleString('en')}`;

/** Checks the contract cannot express (duplicates, references), then the contract itself. */
export function validateForm(values: SubmitFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.job_definition.trim()) errors.job_definition = 'is required';
  else if (!DEFINITION_REF.test(values.job_definition.trim())) {
    errors.job_definition = IDENTIFIER_MESSAGES.definitionRef;
  }
  if (!values.job_queue.trim()) errors.job_queue = 'is required';
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
  const seenKeys = new Set<string>();
  values.parameters.forEach(({ key }, index) => {
    if (!key) errors[`parameters.${index}.key`] = 'is required';
    else if (seenKeys.has(key)) errors[`parameters.${index}.key`] = `duplicate key "${key}"`;
    seenKeys.add(key);
  });
  const seenLabels = new Set<string>();
  values.labels.forEach(({ key }, index) => {
    const trimmed = key.trim();
    if (!trimmed) errors[`labels.${index}.key`] = 'is required';
    else if (trimmed.length > LABEL_LIMITS.keyMaxLength || !LABEL_KEY.test(trimmed))
      errors[`labels.${index}.key`] = LABEL_KEY_MESSAGE;
    else if (seenLabels.has(trimmed))
      errors[`labels.${index}.key`] = `duplicate label "${trimmed}"`;
    seenLabels.add(trimmed);
  });
  const seenNames = new Set<string>();
  values.env.forEach(({ name: variable, value, sensitive }, index) => {
    // A secret blanked by "Submit again" or Retry (the service never sends one back) would run as
    // an empty value nobody typed: the person types it again, or removes the variable.
    if (sensitive && value === '')
      errors[`env.${index}.value`] =
        'is empty: type the secret again (sensitive values are never kept), or remove the variable';
    if (!ENV_NAME.test(variable)) {
      errors[`env.${index}.name`] =
        'must be a POSIX name: letters, digits and _, not starting with a digit';
    } else if (seenNames.has(variable))
      errors[`env.${index}.name`] = `duplicate variable "${variable}"`;
    seenNames.add(variable);
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
  const arraySize = numberOf(values.arraySize);
  if (arraySize !== undefined && !isArraySize(arraySize)) errors.arraySize = ARRAY_SIZE_MESSAGE;
  if (Object.keys(errors).length > 0) return errors;

  const parsed = submitJobSchema.safeParse(payloadFromForm(values));
  if (!parsed.success) {
    const { fields, general } = errorsFromMessage(formatIssues(parsed.error.issues), values);
    Object.assign(errors, fields);
    if (general.length > 0) errors.root = general.join('; ');
  }
  return errors;
}

/** Parameters no command word refers to: allowed, but probably a mistake. */
export function unusedParameterKeys(values: SubmitFormValues): Set<string> {
  const used = new Set(
    values.command.map((c) => paramKeyOf(c.word)).filter((k): k is string => k !== null),
  );
  return new Set([...definedParameterKeys(values)].filter((key) => !used.has(key)));
}
