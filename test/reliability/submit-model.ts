import fc from 'fast-check';
import {
  DEFAULT_BODY_LIMIT_BYTES,
  ENV_NAME,
  JOB_NAME,
  RESERVED_KEYS,
  formatIssues,
  parseDefinitionRef,
  resolveCommand,
  submitJobSchema,
} from '../../contract';
import { testProjects } from '../support/service';

/** Jobs the fuzzer submits go to the paused queue: accepted and stored, never started. */
export const FUZZ_QUEUE = 't::paused';
const PROJECT = 't';

interface DeclaredDefinition {
  command: string[];
  parameters: Record<string, string>;
}

/** The definitions the test service declares, as `t::name:version` → command and defaults. */
const DECLARED = new Map<string, DeclaredDefinition>(
  Object.entries(testProjects().t.definitions).flatMap(([name, versions]) =>
    Object.entries(versions).map(([version, d]) => [
      `${PROJECT}::${name}:${version}`,
      {
        command: d.command,
        parameters: 'parameters' in d ? (d.parameters as Record<string, string>) : {},
      },
    ]),
  ),
);

const DECLARED_QUEUES = new Set(
  Object.keys(testProjects().t.queues).map((name) => `${PROJECT}::${name}`),
);

const DAY_SECONDS = 86_400;
const noNul = (text: string) => !text.includes('\0');
const notReserved = (key: string) => !(RESERVED_KEYS as readonly string[]).includes(key);

/** Any Unicode, some of it odd (combining marks, emoji, right-to-left), but no NUL. */
const text = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength }).filter(noNul);
const parameterKey = fc
  .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 })
  .filter((key) => noNul(key) && notReserved(key));
const envName = fc
  .stringMatching(ENV_NAME)
  .filter((name) => name.length <= 40 && notReserved(name));

/** Valid submissions, built from the contract's own grammar and the declared definitions. */
export const validSubmission = fc
  .record({
    job_definition: fc.constantFrom(...DECLARED.keys()),
    name: fc.option(
      fc.stringMatching(JOB_NAME).filter((n) => n.length <= 64),
      { nil: undefined },
    ),
    parameters: fc.option(fc.dictionary(parameterKey, text(24), { maxKeys: 5 }), {
      nil: undefined,
    }),
    literalWords: fc.array(text(24), { maxLength: 6 }),
    useCommand: fc.boolean(),
    container_env: fc.option(
      fc.dictionary(
        envName,
        fc.record({ value: text(48), sensitive: fc.boolean() }, { requiredKeys: ['value'] }),
        { maxKeys: 5 },
      ),
      { nil: undefined },
    ),
    schedule_at: fc.option(
      fc.oneof(
        fc.double({ min: 0, max: Date.now() / 1000 + 300 * DAY_SECONDS, noNaN: true }),
        fc
          .date({
            min: new Date('2000-01-01'),
            max: new Date(Date.now() + 300 * DAY_SECONDS * 1000),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString()),
      ),
      { nil: undefined },
    ),
  })
  .map(({ parameters, literalWords, useCommand, ...rest }) => {
    // Command words refer only to keys that exist, so a valid submission resolves.
    const references = Object.keys(parameters ?? {}).map((key) => `Param::${key}`);
    const payload: Record<string, unknown> = { ...rest, job_queue: FUZZ_QUEUE };
    if (parameters) payload.container_cmd_parameter = parameters;
    if (useCommand) payload.container_cmd = [...literalWords, ...references];
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    return payload;
  });

/** The payload's fields, as the spec lists them. */
export const FIELDS = [
  'job_definition',
  'job_queue',
  'name',
  'container_cmd',
  'container_cmd_parameter',
  'container_env',
  'schedule_at',
] as const;

/** Where a string sits in a payload, so that a mutation can replace it. */
function stringSlots(payload: Record<string, unknown>): ((value: string) => void)[] {
  const slots: ((value: string) => void)[] = [];
  for (const field of ['job_definition', 'job_queue', 'name'] as const) {
    if (typeof payload[field] === 'string') slots.push((v) => (payload[field] = v));
  }
  const words = payload.container_cmd as string[] | undefined;
  words?.forEach((_, i) => slots.push((v) => (words[i] = v)));
  const parameters = payload.container_cmd_parameter as Record<string, string> | undefined;
  for (const key of Object.keys(parameters ?? {})) slots.push((v) => (parameters![key] = v));
  const env = payload.container_env as Record<string, { value: string }> | undefined;
  for (const key of Object.keys(env ?? {})) slots.push((v) => (env![key]!.value = v));
  return slots;
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = asArray ? [value] : { a: value };
  return value;
}

/** An own enumerable key, even `__proto__`, as JSON.parse would make it. */
function defineKey(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** One way to break a payload; each is applied to a fresh copy of a valid one. */
export const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('wrong-type' as const),
    field: fc.constantFrom(...FIELDS),
    value: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.object({ maxDepth: 2 }),
      fc.string({ maxLength: 10 }),
      fc.double(),
    ),
  }),
  fc.record({
    kind: fc.constant('missing' as const),
    field: fc.constantFrom('job_definition', 'job_queue'),
  }),
  fc.record({
    kind: fc.constant('extra-field' as const),
    key: fc
      .string({ minLength: 1, maxLength: 20 })
      .filter((key) => !(FIELDS as readonly string[]).includes(key)),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({
    kind: fc.constant('huge-string' as const),
    slot: fc.nat(),
    // Over a word's 8 KiB, over an env value's 32 KiB, over the 256 KiB body.
    length: fc.constantFrom(9_000, 40_000, 300_000),
  }),
  fc.record({
    kind: fc.constant('odd-unicode' as const),
    slot: fc.nat(),
    value: fc.string({ unit: 'binary', minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('nul' as const), slot: fc.nat(), at: fc.nat() }),
  fc.record({
    kind: fc.constant('deep-nesting' as const),
    field: fc.constantFrom(...FIELDS),
    // Deeper nesting is in the fixed corpus; fast-check's reporter recurses into what it prints.
    depth: fc.integer({ min: 20, max: 500 }),
    asArray: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('reserved-key' as const),
    key: fc.constantFrom(...RESERVED_KEYS),
    where: fc.constantFrom('top', 'env', 'parameters', 'env-entry'),
  }),
);

export type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

export function mutate(valid: Record<string, unknown>, change: Mutation): Record<string, unknown> {
  const payload = structuredClone(valid);
  const slots = stringSlots(payload);
  const pick = (n: number) => slots[n % Math.max(1, slots.length)];
  switch (change.kind) {
    case 'wrong-type':
      payload[change.field] = change.value;
      break;
    case 'missing':
      delete payload[change.field];
      break;
    case 'extra-field':
      defineKey(payload, change.key, change.value);
      break;
    case 'huge-string':
      pick(change.slot)?.('x'.repeat(change.length));
      break;
    case 'odd-unicode':
      pick(change.slot)?.(change.value);
      break;
    case 'nul':
      pick(change.slot)?.(`a${'\0'.repeat(1 + (change.at % 3))}b`);
      break;
    case 'deep-nesting':
      payload[change.field] = nested(change.depth, 'x', change.asArray);
      break;
    case 'reserved-key': {
      const env = (payload.container_env ??= {}) as Record<string, unknown>;
      const target =
        change.where === 'top'
          ? payload
          : change.where === 'env'
            ? env
            : change.where === 'parameters'
              ? ((payload.container_cmd_parameter ??= {}) as object)
              : ((env.ENTRY ??= { value: 'v' }) as object);
      defineKey(target, change.key, change.where === 'env' ? { value: 's', sensitive: true } : 'x');
      break;
    }
  }
  return payload;
}

export interface Expected {
  status: 202 | 400 | 413;
  /** For 400: the exact message, or the field the message must start with. */
  message?: string;
  field?: string;
}

/**
 * What the service must answer, worked out from the contract alone: the body limit, then the
 * submit schema (its message, word for word), then the rules about declared definitions, queues,
 * parameters and names that the service adds. `heldNames` are names of unfinished fuzz jobs.
 */
export function expectedAnswer(body: string, heldNames: ReadonlySet<string>): Expected {
  if (Buffer.byteLength(body) > DEFAULT_BODY_LIMIT_BYTES) return { status: 413 };
  const parsed = submitJobSchema.safeParse(JSON.parse(body));
  if (!parsed.success) return { status: 400, message: formatIssues(parsed.error.issues) };
  const payload = parsed.data;
  const definition = DECLARED.get(payload.job_definition);
  if (parseDefinitionRef(payload.job_definition)?.project !== PROJECT || !definition) {
    return { status: 400, field: 'job_definition' };
  }
  if (!DECLARED_QUEUES.has(payload.job_queue)) return { status: 400, field: 'job_queue' };
  const resolved = resolveCommand(payload.container_cmd ?? definition.command, {
    ...definition.parameters,
    ...payload.container_cmd_parameter,
  });
  if (!resolved.ok) {
    return { status: 400, field: payload.container_cmd ? 'container_cmd' : 'job_definition' };
  }
  if (payload.name !== undefined && heldNames.has(payload.name)) {
    return { status: 400, field: 'name' };
  }
  return { status: 202 };
}
