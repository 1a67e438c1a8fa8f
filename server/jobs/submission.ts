import { v7 as timeOrderedUuid } from 'uuid';
import {
  missingParameterMessage,
  parseDefinitionRef,
  parseQueueRef,
  resolveCommand,
  scheduleAtToMillis,
  isJobDependencyType,
  withDefaults,
  type SubmitJobRequest,
} from '../../contract';
import type { Catalog, DefinitionSettings } from './catalog';
import { invalid } from './errors';
import type { ArrayLinks, ArrayParentRole, NewJob, StoredEnvVar } from './model';
import { amountOf, type Resources } from './placement';
import type { SecretBox } from './ports';

/**
 * What a generated name adds to the definition's: the id's millisecond (its low 32 bits, 8
 * digits) and its last 6 digits (random). Names that grow with time are written at the end of
 * the index that keeps them unique in a queue; the id's random digits alone dirtied a random page
 * of it per job, nearly doubling SQLite's time a job. Two jobs of one millisecond
 * share a name once in 16 million; the submit then tries another id.
 */
export const shortId = (id: string) => `${id.slice(4, 8)}${id.slice(9, 13)}${id.slice(-6)}`;

/**
 * What the children of an array wait for, from its n_to_n and sequential dependencies (refused,
 * at their field, on a job that is not an array).
 */
function arrayLinks(payload: SubmitJobRequest): { links?: ArrayLinks; nToNField?: number } {
  const links: ArrayLinks = {};
  let nToNField: number | undefined;
  for (const [index, d] of (payload.depends_on ?? []).entries()) {
    if (d.type === 'n_to_n') {
      links.nToN = d.job_id!.toLowerCase();
      nToNField = index;
    }
    if (d.type === 'sequential') links.sequential = true;
    if ((d.type === 'n_to_n' || d.type === 'sequential') && !payload.array) {
      throw invalid(
        `depends_on[${index}].type: ${d.type} is for array jobs (each child waits); give array.size, or use afterok`,
      );
    }
  }
  if (Object.keys(links).length === 0) return {};
  // Children follow by index (the one before, the other array's of the same index): a subset
  // has gaps where a child would wait for one it does not have.
  if (payload.array?.indexes) {
    const type = links.nToN === undefined ? 'sequential' : 'n_to_n';
    throw invalid(
      `array.indexes: cannot be given with a ${type} dependency, whose children follow by index`,
    );
  }
  return { links, nToNField };
}

/** A parent's role as submitted: its indexes, when given, ascending. */
const arrayRoleOf = (
  { size, indexes }: NonNullable<SubmitJobRequest['array']>,
  links: ArrayLinks | undefined,
): ArrayParentRole => ({
  size,
  ...(links && { links }),
  ...(indexes && { indexes: [...indexes].sort((a, b) => a - b) }),
});

const REQUEST_FIELDS = [
  ['cpus', 'cpus'],
  ['memory_bytes', 'memoryBytes'],
  ['gpus', 'gpus'],
] as const;

/**
 * What the job asks for (the submission's `resources` over the definition's, each within the
 * definition's `max`) and its container's limits: the definition's, raised to what it asks for.
 * A limit left as it was stays null (the service default applies, as before requests existed).
 */
function resourcesOf(
  payload: SubmitJobRequest,
  definition: DefinitionSettings,
): Pick<NewJob, 'resources' | 'cpus' | 'memoryBytes'> {
  const { request, max, limits } = definition.resources;
  const resources: Resources = { ...request };
  for (const [field, key] of REQUEST_FIELDS) {
    const asked = payload.resources?.[field];
    if (asked === undefined) continue;
    if (asked > max[key]) {
      throw invalid(
        `resources.${field}: asks for ${amountOf(key, asked)}; definition ${definition.ref} allows at most ${amountOf(key, max[key])}`,
      );
    }
    resources[key] = asked;
  }
  return {
    resources,
    cpus: resources.cpus > limits.cpus ? resources.cpus : definition.cpus,
    memoryBytes:
      resources.memoryBytes > limits.memoryBytes ? resources.memoryBytes : definition.memoryBytes,
  };
}

/**
 * A submission's strategy replaces the definition's as a whole: rules are read in order, and
 * half of one list with half of another would be neither's. Its out-of-memory ceiling stays
 * within what the definition allows: its own ceiling, or the most a submission's `resources`
 * may ask for.
 */
function retryOf(payload: SubmitJobRequest, definition: DefinitionSettings) {
  if (!payload.retry) return definition.retry;
  const ceiling = payload.retry.out_of_memory?.max_memory_bytes;
  const allowed = Math.max(
    definition.retry?.out_of_memory?.max_memory_bytes ?? 0,
    definition.resources.max.memoryBytes,
  );
  if (ceiling !== undefined && ceiling > allowed) {
    throw invalid(
      `retry.out_of_memory.max_memory_bytes: asks for ${amountOf('memoryBytes', ceiling)}; definition ${definition.ref} allows at most ${amountOf('memoryBytes', allowed)}`,
    );
  }
  return withDefaults(payload.retry);
}

/** A job to store, with the fingerprint of the definition it was made from (looked up once). */
export interface JobPlan {
  job: NewJob;
  definitionFingerprint: string;
  /** Which depends_on entry is the array's n_to_n dependency: refusals of it name that field. */
  nToNField?: number;
}

/**
 * Turns a well-formed payload into the job to store: checks the references against the
 * catalog and the caller's project, resolves the command and merges the environment.
 * Throws JobRequestError('invalid') with a message that names the field.
 */
export function planJob(
  payload: SubmitJobRequest,
  project: string,
  catalog: Catalog,
  secrets: Pick<SecretBox, 'seal'>,
  now: number,
  submittedBy: string | null,
): JobPlan {
  const definitionRef = parseDefinitionRef(payload.job_definition);
  const queueRef = parseQueueRef(payload.job_queue);
  if (definitionRef?.project !== project) {
    throw invalid(
      `job_definition: project "${definitionRef?.project}" is not this API key's project "${project}"`,
    );
  }
  if (queueRef?.project !== project) {
    throw invalid(
      `job_queue: project "${queueRef?.project}" is not this API key's project "${project}"`,
    );
  }
  const definition = catalog.definition(payload.job_definition);
  if (!definition) {
    throw invalid(`job_definition: no definition "${payload.job_definition}" is declared`);
  }
  const queue = catalog.queue(payload.job_queue);
  if (!queue) throw invalid(`job_queue: no queue "${payload.job_queue}" is declared`);

  const parameters = { ...definition.parameters, ...payload.container_cmd_parameter };
  const words = payload.container_cmd ?? definition.command;
  const resolved = resolveCommand(words, parameters);
  if (!resolved.ok) {
    throw invalid(
      payload.container_cmd
        ? missingParameterMessage(resolved.index, resolved.key)
        : `job_definition: its command word ${resolved.index} refers to parameter "${resolved.key}", which neither container_cmd_parameter nor the definition defines`,
    );
  }

  // Definition env first, submission env on top; only the submitted sensitive values are sealed.
  const env = new Map<string, StoredEnvVar>();
  for (const [name, value] of Object.entries(definition.env)) env.set(name, { name, value });
  for (const [name, entry] of Object.entries(payload.container_env ?? {})) {
    env.set(
      name,
      entry.sensitive ? { name, sealed: secrets.seal(entry.value) } : { name, value: entry.value },
    );
  }

  const { links, nToNField } = arrayLinks(payload);
  // Ids that grow with time land at the end of the indexes keyed by them (the id's, the
  // transitions'), where random ones dirtied a random page each, at a cost in Job Submit's CPU.
  const id = timeOrderedUuid();
  const scheduleAt =
    payload.schedule_at === undefined ? null : scheduleAtToMillis(payload.schedule_at);
  const job: NewJob = {
    id,
    project,
    queue: queue.ref,
    definition: definition.ref,
    name: payload.name ?? `${definition.name}-${shortId(id)}`,
    scheduleAt,
    createdAt: now,
    image: definition.image,
    retry: retryOf(payload, definition),
    command: resolved.command,
    env: [...env.values()],
    timeoutSeconds: definition.timeoutSeconds,
    stopGraceSeconds: definition.stopGraceSeconds,
    ...resourcesOf(payload, definition),
    network: definition.network,
    runOptions: definition.runOptions,
    dependsOn: (payload.depends_on ?? []).flatMap((d) => {
      const type = d.type ?? 'afterok';
      // Ids are answered in lower case; a client may write them in upper.
      return isJobDependencyType(type) ? [{ jobId: d.job_id!.toLowerCase(), type }] : [];
    }),
    array: payload.array ? arrayRoleOf(payload.array, links) : null,
    labels: payload.labels ?? {},
    submittedBy,
  };
  return { job, definitionFingerprint: definition.fingerprint, nToNField };
}
