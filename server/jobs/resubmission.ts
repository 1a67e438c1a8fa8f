import {
  RESUBMIT_LABELS,
  formatIssues,
  isFinalState,
  submitJobSchema,
  type ResubmitJobRequest,
  type SubmitJobRequest,
} from '../../contract';
import { conflict, invalid } from './errors';
import { parentRole, type Job } from './model';
import { SecretKeyMissingError, type SecretBox } from './ports';

/** A submission that runs a finished job again, and which of its secrets it keeps. */
export interface Resubmission {
  payload: SubmitJobRequest;
  /** The sensitive variables whose values were copied from the job. */
  keptSecrets: string[];
}

/**
 * The submission that runs `source` again as it ran, with `changes` on top. Sensitive values are
 * opened here, in the service, and sealed again by the submit: a client never handles them. One
 * that can no longer be opened is refused at its variable, never sent empty.
 */
export function resubmissionOf(
  source: Job,
  changes: ResubmitJobRequest,
  box: SecretBox,
  extraLabels: Record<string, string> = {},
): Resubmission {
  if (!isFinalState(source.state)) {
    throw conflict(
      `job_id: job ${source.id} is ${source.state}; a job is submitted again once it has ended`,
    );
  }
  const dropped = new Set(changes.drop_env ?? []);
  (changes.drop_env ?? []).forEach((name, index) => {
    if (!source.env.some((v) => v.name === name)) {
      throw invalid(`drop_env[${index}]: job ${source.id} has no variable "${name}"`);
    }
  });
  const env: NonNullable<SubmitJobRequest['container_env']> = {};
  const keptSecrets: string[] = [];
  for (const variable of source.env) {
    if (dropped.has(variable.name) || changes.container_env?.[variable.name]) continue;
    if (!('sealed' in variable)) {
      env[variable.name] = { value: variable.value };
      continue;
    }
    env[variable.name] = {
      value: opened(source, variable.name, variable.sealed, box),
      sensitive: true,
    };
    keptSecrets.push(variable.name);
  }
  Object.assign(env, changes.container_env);

  const command = changes.container_cmd ?? source.command;
  const array = changes.array ?? sizeOf(source);
  const labels = {
    ...withoutProvenance(changes.labels ?? source.labels),
    ...extraLabels,
    [RESUBMIT_LABELS.source]: source.id,
  };
  const payload = {
    job_definition: source.definition,
    job_queue: changes.job_queue ?? source.queue,
    ...(changes.name !== undefined && { name: changes.name }),
    // An empty command is the definition's (the image's own), which cannot have changed.
    ...(command.length > 0 && { container_cmd: command }),
    ...(Object.keys(env).length > 0 && { container_env: env }),
    ...(changes.schedule_at !== undefined && { schedule_at: changes.schedule_at }),
    ...(source.retry && { retry: source.retry }),
    ...(array && { array }),
    labels,
  };
  // The job's own fields passed this check at its submit; together with the changes they may not.
  const checked = submitJobSchema.safeParse(payload);
  if (!checked.success) throw invalid(formatIssues(checked.error.issues));
  return { payload: checked.data, keptSecrets };
}

/** The job's own provenance labels say where it came from, not where the new job does. */
const withoutProvenance = (labels: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(labels).filter(([key]) => !Object.values<string>(RESUBMIT_LABELS).includes(key)),
  );

const sizeOf = (job: Job) => {
  const parent = parentRole(job);
  return parent ? { size: parent.size } : undefined;
};

function opened(source: Job, name: string, sealed: string, box: SecretBox): string {
  try {
    return box.open(sealed);
  } catch (error) {
    const why =
      error instanceof SecretKeyMissingError
        ? `the key that sealed it (id ${error.keyId}) is no longer configured`
        : 'none of the configured keys opens it';
    throw conflict(
      `container_env.${name}: the sensitive value of job ${source.id} can no longer be opened (${why}); give it again in container_env or leave it out with drop_env`,
    );
  }
}
