import type { Control, FieldErrors as FormErrors, UseFormRegister } from 'react-hook-form';
import {
  type DependencyType,
  fieldErrorsOf,
  paramKeyOf,
  isJobDependencyType,
  type JobExecution,
  type SubmitJobRequest,
} from '../../../contract';
import { dayjs } from '../../lib/time';
import {
  emptyRetry,
  numberOf,
  retryFieldOf,
  retryFromForm,
  retryToForm,
  type RetryValues,
} from './retry-model';

export type ScheduleMode = 'none' | 'datetime' | 'unix';

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
  /** Of the array, only these indexes (array.indexes, ascending); empty: every index. */
  arrayIndexes: number[];
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
  arrayIndexes: [],
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
  if (arraySize !== undefined) {
    payload.array = {
      size: arraySize,
      ...(values.arrayIndexes.length > 0 && { indexes: values.arrayIndexes }),
    };
  }
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
    arrayIndexes: [...(payload.array?.indexes ?? [])],
    labels: keyValueRows(payload.labels),
  };
}

const keyValueRows = (map: Record<string, string> | undefined) =>
  Object.entries(map ?? {}).map(([key, value]) => ({ key, value }));

/**
 * A job of any origin submitted again, from what ran: the command as run (its `Param::` words
 * already substituted), every variable it had, and an array's size (and indexes) for a parent. A sensitive
 * value is never sent back, so it comes empty, marked sensitive, for the person to type again; a
 * new name is generated.
 */
export function formFromExecution(
  execution: JobExecution,
  arraySize: number | null = null,
  arrayIndexes: readonly number[] = [],
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
    arrayIndexes: [...arrayIndexes],
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
  if (field === 'array' || field.startsWith('array.')) return 'arraySize';
  if (field === 'labels') return 'labels';
  const label = /^labels\.(.+)$/.exec(field);
  if (label) {
    const index = values.labels.findIndex((l) => l.key.trim() === label[1]);
    return index >= 0 ? `labels.${index}.value` : 'labels';
  }
  return retryFieldOf(field, values.retry.rules.length);
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

/** Parameters no command word refers to: allowed, but probably a mistake. */
export function unusedParameterKeys(values: SubmitFormValues): Set<string> {
  const used = new Set(
    values.command.map((c) => paramKeyOf(c.word)).filter((k): k is string => k !== null),
  );
  return new Set([...definedParameterKeys(values)].filter((key) => !used.has(key)));
}
