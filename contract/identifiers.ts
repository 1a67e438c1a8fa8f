/**
 * Identifier grammar of the spec: `<project>::<definition>:<version>` and `<project>::<queue>`.
 * One place for both console and service so that their checks cannot drift apart.
 */
const segment = '[A-Za-z0-9][A-Za-z0-9_.-]*';

export const DEFINITION_REF = new RegExp(`^(${segment})::(${segment}):(${segment})$`);
export const QUEUE_REF = new RegExp(`^(${segment})::(${segment})$`);
export const JOB_NAME = /^[A-Za-z0-9._-]+$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const PARAM_PREFIX = 'Param::';
/**
 * An event id or a list cursor (extensions): an opaque token for a position in the service's
 * changes, valid for the project it was given to; it reveals nothing of other projects' activity.
 */
export const POSITION_TOKEN = /^[A-Za-z0-9_-]{22}$/;
/** A sorted job list's cursor: two such blocks (the last job's sort key, then its position). */
export const LIST_CURSOR_TOKEN = /^[A-Za-z0-9_-]{22}(?:[A-Za-z0-9_-]{22})?$/;
export const CURSOR_MESSAGE = 'must be a next_cursor value from an earlier page';

/** The formats as people read them, and the contract's messages for each rule above. */
export const DEFINITION_REF_FORMAT = '<project>::<definition>:<version>';
export const QUEUE_REF_FORMAT = '<project>::<queue>';
export const IDENTIFIER_MESSAGES = {
  definitionRef: `must look like ${DEFINITION_REF_FORMAT}`,
  queueRef: `must look like ${QUEUE_REF_FORMAT}`,
  jobName: 'may contain only letters, digits, ".", "_" and "-"',
  envName: 'is not a valid variable name (use [A-Za-z_][A-Za-z0-9_]*)',
} as const;

export const definitionRefOf = ({ project, name, version }: DefinitionRef) =>
  `${project}::${name}:${version}`;
export const queueRefOf = ({ project, name }: QueueRef) => `${project}::${name}`;

export interface DefinitionRef {
  project: string;
  name: string;
  version: string;
}

export interface QueueRef {
  project: string;
  name: string;
}

export function parseDefinitionRef(ref: string): DefinitionRef | null {
  const match = DEFINITION_REF.exec(ref);
  if (!match) return null;
  const [, project = '', name = '', version = ''] = match;
  return { project, name, version };
}

export function parseQueueRef(ref: string): QueueRef | null {
  const match = QUEUE_REF.exec(ref);
  if (!match) return null;
  const [, project = '', name = ''] = match;
  return { project, name };
}

/** The parameter key a command word refers to, or null for a literal word. */
export function paramKeyOf(word: string): string | null {
  return word.startsWith(PARAM_PREFIX) ? word.slice(PARAM_PREFIX.length) : null;
}

/**
 * Substitutes `Param::key` words. Returns the first missing reference instead of throwing,
 * so the console can show it at the field and the service can put it in a 400.
 */
export function resolveCommand(
  words: readonly string[],
  parameters: Readonly<Record<string, string>>,
): { ok: true; command: string[] } | { ok: false; index: number; key: string } {
  const command: string[] = [];
  for (const [index, word] of words.entries()) {
    const key = paramKeyOf(word);
    if (key === null) {
      command.push(word);
    } else if (Object.hasOwn(parameters, key)) {
      command.push(parameters[key] as string);
    } else {
      return { ok: false, index, key };
    }
  }
  return { ok: true, command };
}

export function missingParameterMessage(index: number, key: string): string {
  return `container_cmd[${index}]: refers to parameter "${key}", which container_cmd_parameter does not define`;
}
