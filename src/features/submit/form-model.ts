import type { Control, FieldErrors as FormErrors, UseFormRegister } from 'react-hook-form';
import {
  DEFINITION_REF,
  ENV_NAME,
  IDENTIFIER_MESSAGES,
  JOB_NAME,
  QUEUE_REF,
  fieldErrorsOf,
  formatIssues,
  paramKeyOf,
  type JobExecution,
} from '../../../contract';
import { dayjs } from '../../lib/time';
import { submitRequestSchema, type SubmitRequest } from '../../lib/submission';

export type ScheduleMode = 'none' | 'datetime' | 'unix';

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

/** The request body the form describes. Empty optional parts are left out, as the spec allows. */
export function payloadFromForm(values: SubmitFormValues): SubmitRequest {
  const payload: SubmitRequest = {
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
  return payload;
}

export function formFromPayload(payload: SubmitRequest): SubmitFormValues {
  const schedule = payload.schedule_at;
  return {
    job_definition: payload.job_definition,
    job_queue: payload.job_queue,
    name: payload.name ?? '',
    command: (payload.container_cmd ?? []).map((word) => ({ word })),
    parameters: Object.entries(payload.container_cmd_parameter ?? {}).map(([key, value]) => ({
      key,
      value,
    })),
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
  };
}

/**
 * A job of any origin submitted again, from what ran: the command as run (its `Param::` words
 * already substituted), every variable it had. A sensitive value is never sent back, so it
 * comes empty, marked sensitive, for the person to type again; a new name is generated.
 */
export function formFromExecution(execution: JobExecution): SubmitFormValues {
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
  return null;
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
  const seenNames = new Set<string>();
  values.env.forEach(({ name: variable }, index) => {
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
  if (Object.keys(errors).length > 0) return errors;

  const parsed = submitRequestSchema.safeParse(payloadFromForm(values));
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
