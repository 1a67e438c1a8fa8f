import fc from 'fast-check';

/**
 * Request cases generated from an OpenAPI 3.1 document, deterministically: for each operation,
 * values that satisfy each parameter's and body field's schema (positive) and values that break
 * one of its constraints once (negative). Only the JSON Schema the contract emits is read: type
 * (and type lists with null), enum, const, format date-time and uri, pattern, minLength,
 * maxLength, minimum, maximum, items, minItems, maxItems, uniqueItems, properties, required,
 * additionalProperties, propertyNames, minProperties, maxProperties, anyOf, examples and $ref.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  minProperties?: number;
  maxProperties?: number;
  anyOf?: JsonSchema[];
  examples?: unknown[];
  $ref?: string;
}

export type Where = 'path' | 'query' | 'header' | 'body';

export interface RequestParts {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  header: Record<string, string>;
  /** undefined: no body sent. */
  body?: unknown;
}

export interface Case {
  operationId: string;
  method: string;
  /** The path template, `{name}` for each path parameter. */
  template: string;
  positive: boolean;
  /** The field as the service's messages name it (`filter.label[0]`, `identity`, `body`). */
  field: string;
  where: Where;
  /** Which constraint the value meets or breaks. */
  why: string;
  /** Other names the message may give instead (a missing body: its first required field). */
  alternatives?: string[];
  request: RequestParts;
}

/** A value of a field, meeting or breaking one constraint. */
interface Value {
  field: string;
  value: unknown;
  why: string;
}

/**
 * Values the document cannot give: a reference to something that must exist (a job, a queue, a
 * definition), or a token the service itself issued. Keyed by where the value goes and the field
 * as messages name it, items as `[]` (`body:depends_on[].job_id`, `path:job_id`), optionally
 * prefixed by the operation (`listJobs query:cursor`).
 */
export type Fixtures = Record<string, unknown>;

const UNKNOWN = 'zz_not_a_field';

export interface Operation {
  operationId: string;
  parameters?: { name: string; in: Where; required?: boolean; schema: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export class CaseGenerator {
  /** The operation whose cases are being made: fixtures may be the operation's own. */
  private operationId = '';

  constructor(
    private readonly document: OpenApiDocument,
    private readonly fixtures: Fixtures,
  ) {}

  /** Every operation's cases, positive then negative, in the document's order. */
  all(): Case[] {
    const cases: Case[] = [];
    for (const [template, operations] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        cases.push(...this.forOperation(template, method.toUpperCase(), operation));
      }
    }
    return cases;
  }

  /** One unknown query parameter per GET: refused (400) where every query is checked. */
  unknownQueryParameters(): Case[] {
    const cases: Case[] = [];
    for (const [template, operations] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (method !== 'get') continue;
        this.operationId = operation.operationId;
        const base = this.baseline(operation);
        cases.push({
          ...this.describe(template, method.toUpperCase(), operation),
          positive: false,
          field: UNKNOWN,
          where: 'query',
          why: 'unknown query parameter',
          request: { ...base, query: { ...base.query, [UNKNOWN]: '1' } },
        });
      }
    }
    return cases;
  }

  private describe(template: string, method: string, operation: Operation) {
    return { operationId: operation.operationId, method, template };
  }

  private parametersOf(operation: Operation) {
    return (operation.parameters ?? []).map((p) => ({ ...p, schema: this.resolve(p.schema) }));
  }

  private bodySchemaOf(operation: Operation): JsonSchema | undefined {
    const json = operation.requestBody?.content['application/json'];
    return json ? this.resolve(json.schema) : undefined;
  }

  /** The request with every required parameter and body field at its first positive value. */
  private baseline(operation: Operation): RequestParts {
    const parts: RequestParts = { path: {}, query: {}, header: {} };
    for (const parameter of this.parametersOf(operation)) {
      if (!parameter.required) continue;
      const value = this.positives(parameter.schema, parameter.name, `${parameter.in}:`)[0]!;
      put(parts, parameter.in, parameter.name, value.value);
    }
    const body = this.bodySchemaOf(operation);
    if (body && operation.requestBody?.required) {
      parts.body = this.positives(body, '', 'body:')[0]!.value;
    }
    return parts;
  }

  private forOperation(template: string, method: string, operation: Operation): Case[] {
    this.operationId = operation.operationId;
    const about = this.describe(template, method, operation);
    const base = this.baseline(operation);
    const cases: Case[] = [
      { ...about, positive: true, field: '', where: 'body', why: 'baseline', request: base },
    ];
    for (const parameter of this.parametersOf(operation)) {
      const { name, schema } = parameter;
      const where = parameter.in;
      const scope = `${where}:`;
      const variant = (value: Value, positive: boolean) => {
        const request = clone(base);
        put(request, where, name, value.value);
        cases.push({ ...about, positive, field: value.field, where, why: value.why, request });
      };
      for (const value of this.positives(schema, name, scope)) {
        if (where !== 'header' || sendableInHeader(value.value)) variant(value, true);
      }
      const negatives = this.negatives(schema, name, scope, where);
      for (const value of negatives) variant(value, false);
      if (parameter.required && where === 'query') {
        const request = clone(base);
        delete request.query[name];
        cases.push({ ...about, positive: false, field: name, where, why: 'missing', request });
      }
    }
    const body = this.bodySchemaOf(operation);
    if (body) {
      const variant = (value: Value, positive: boolean) =>
        cases.push({
          ...about,
          positive,
          field: value.field || 'body',
          where: 'body',
          why: value.why,
          request: { ...clone(base), body: value.value },
        });
      for (const value of this.positives(body, '', 'body:')) variant(value, true);
      for (const value of this.negatives(body, '', 'body:', 'body')) variant(value, false);
      if (operation.requestBody?.required) {
        const request = clone(base);
        delete request.body;
        const first = body.required?.[0];
        cases.push({
          ...about,
          positive: false,
          field: 'body',
          alternatives: first === undefined ? [] : [first],
          where: 'body',
          why: 'missing',
          request,
        });
      }
    }
    return cases;
  }

  private resolve(schema: JsonSchema): JsonSchema {
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const found = this.document.components?.schemas?.[name];
    if (!found) throw new Error(`unresolved ${schema.$ref}`);
    return this.resolve(found);
  }

  /** Values meeting the schema; the first is the plainest, used wherever the field is required. */
  positives(schema: JsonSchema, field: string, scope: string): Value[] {
    schema = this.resolve(schema);
    const key = `${scope}${itemsOf(field)}`;
    const fixed = this.fixtures[`${this.operationId} ${key}`] ?? this.fixtures[key];
    if (fixed !== undefined) return [{ field, value: fixed, why: 'a real one (fixture)' }];
    if (schema.anyOf) return schema.anyOf.flatMap((branch) => this.positives(branch, field, scope));
    const types = typesOf(schema);
    const values: Value[] = [];
    const add = (value: unknown, why: string) => values.push({ field, value, why });
    if (schema.const !== undefined) add(schema.const, 'const');
    else if (schema.enum) for (const value of schema.enum) add(value, `enum ${String(value)}`);
    else if (schema.examples) for (const value of schema.examples) add(value, 'example');
    else if (types.includes('string')) for (const [v, why] of strings(schema)) add(v, why);
    else if (types.includes('integer') || types.includes('number')) {
      for (const [v, why] of numbers(schema)) add(v, why);
    } else if (types.includes('boolean')) {
      add(true, 'true');
      add(false, 'false');
    } else if (types.includes('array')) values.push(...this.arrays(schema, field, scope));
    else if (types.includes('object')) values.push(...this.objects(schema, field, scope));
    if (types.includes('null')) add(null, 'null');
    if (values.length === 0)
      throw new Error(`no positive value for ${field}: ${JSON.stringify(schema)}`);
    return values;
  }

  private arrays(schema: JsonSchema, field: string, scope: string): Value[] {
    const items = this.positives(schema.items ?? {}, `${field}[0]`, scope);
    const count = Math.max(schema.minItems ?? 0, 1);
    const distinct = items.map((i) => i.value);
    const fill = (n: number) => Array.from({ length: n }, (_, i) => distinct[i % distinct.length]);
    const values: Value[] = [{ field, value: fill(count), why: `${count} item(s)` }];
    // Each of the item's positive values, alone (the rest at their first value).
    for (const item of items.slice(1)) {
      values.push({
        field: item.field,
        value: [...fill(count - 1), item.value],
        why: `item: ${item.why}`,
      });
    }
    if (schema.maxItems !== undefined && schema.maxItems > count) {
      // The plainest item repeated (distinct ones where items must be unique): one boundary at a time.
      const most = schema.uniqueItems
        ? Math.min(schema.maxItems, distinct.length)
        : schema.maxItems;
      const many = schema.uniqueItems
        ? fill(most)
        : Array.from({ length: most }, () => distinct[0]);
      if (most > count) values.push({ field, value: many, why: `${most} items (maxItems)` });
    }
    return values;
  }

  private objects(schema: JsonSchema, field: string, scope: string): Value[] {
    const properties = schema.properties ?? {};
    const minimal = this.minimalObject(schema, field, scope);
    const values: Value[] = [{ field, value: minimal, why: 'the fewest fields' }];
    for (const [name, property] of Object.entries(properties)) {
      for (const value of this.positives(property, join(field, name), scope)) {
        values.push({ ...value, value: { ...minimal, [name]: value.value } });
      }
    }
    const additional = schema.additionalProperties;
    if (typeof additional === 'object') {
      const value = this.positives(additional, join(field, 'key'), scope)[0]!.value;
      const keys = propertyNamesFor(schema.propertyNames ?? {}, schema.maxProperties ?? 1);
      values.push({ field, value: { ...minimal, [keys[0]!]: value }, why: 'one entry' });
      if (schema.maxProperties !== undefined && schema.maxProperties > 1) {
        const most = Object.fromEntries(keys.map((key) => [key, value]));
        values.push({ field, value: { ...minimal, ...most }, why: 'maxProperties entries' });
      }
    }
    return values;
  }

  /** The required fields, and optional ones in order while fewer than minProperties. */
  private minimalObject(schema: JsonSchema, field: string, scope: string) {
    const properties = schema.properties ?? {};
    const required = schema.required ?? [];
    const minimal: Record<string, unknown> = {};
    const names = [...required, ...Object.keys(properties).filter((n) => !required.includes(n))];
    for (const name of names) {
      if (!required.includes(name) && Object.keys(minimal).length >= (schema.minProperties ?? 0)) {
        break;
      }
      minimal[name] = this.positives(properties[name] ?? {}, join(field, name), scope)[0]!.value;
    }
    return minimal;
  }

  /** Values that break exactly one constraint of the schema (or of one nested field). */
  negatives(schema: JsonSchema, field: string, scope: string, where: Where): Value[] {
    schema = this.resolve(schema);
    const values: Value[] = [];
    const add = (value: unknown, why: string, at = field) => values.push({ field: at, value, why });
    const types = typesOf(schema);
    // In a path or query every value is text: a wrong type is text that is no number.
    const textual = where === 'path' || where === 'query' || where === 'header';
    if (schema.anyOf) {
      const branches = schema.anyOf.map((branch) => this.resolve(branch));
      if (!branches.some((branch) => acceptsType(branch, true))) {
        add(true, 'wrong type: matches no branch');
      }
      // A branch's negative counts when no other branch takes a value of its type.
      for (const branch of branches) {
        const others = branches.filter((other) => other !== branch);
        for (const value of this.negatives(branch, field, scope, where)) {
          if (!others.some((other) => acceptsType(other, value.value))) values.push(value);
        }
      }
      return values.filter((v, i, all) => all.findIndex((w) => same(w.value, v.value)) === i);
    }
    if (schema.enum) add('zz-not-one-of-them', 'not in enum');
    if (types.includes('string')) {
      if (!textual && !schema.enum) add(7, 'wrong type: a number');
      if (schema.minLength !== undefined && schema.minLength > 0) {
        add(''.padEnd(schema.minLength - 1, 'a'), 'below minLength');
      }
      if (schema.maxLength !== undefined) {
        const long = stringOfLength(schema, schema.maxLength + 1);
        add(long, 'above maxLength');
      }
      if (schema.pattern) {
        const broken = patternBreaker(schema);
        if (broken !== undefined) add(broken, `breaks pattern ${schema.pattern}`);
      }
      if (schema.format === 'date-time') add('2026-13-45T99:00:00Z', 'not a date-time');
      if (schema.format === 'uri') add('not a url', 'not a uri');
    } else if (types.includes('integer') || types.includes('number')) {
      add('abc', 'wrong type: text');
      if (schema.minimum !== undefined) add(lift(schema.minimum - 1, textual), 'below minimum');
      if (schema.maximum !== undefined) add(lift(schema.maximum + 1, textual), 'above maximum');
      if (types.includes('integer'))
        add(lift((schema.minimum ?? 0) + 0.5, textual), 'not an integer');
    } else if (types.includes('boolean')) {
      add('yes', 'wrong type: text');
    } else if (types.includes('array')) {
      values.push(...this.arrayNegatives(schema, field, scope, where));
    } else if (types.includes('object')) {
      values.push(...this.objectNegatives(schema, field, scope, where));
    }
    return values;
  }

  private arrayNegatives(schema: JsonSchema, field: string, scope: string, where: Where): Value[] {
    const values: Value[] = [];
    const textual = where !== 'body';
    const first = this.positives(schema.items ?? {}, `${field}[0]`, scope)[0]!.value;
    const count = Math.max(schema.minItems ?? 0, 1);
    const fill = (n: number) => Array.from({ length: n }, () => first);
    if (!textual) values.push({ field, value: { not: 'an array' }, why: 'wrong type: an object' });
    if (!textual && schema.minItems !== undefined && schema.minItems > 0) {
      values.push({ field, value: fill(schema.minItems - 1), why: 'below minItems' });
    }
    if (schema.maxItems !== undefined) {
      const distinct = this.positives(schema.items ?? {}, `${field}[0]`, scope).map((v) => v.value);
      const over = schema.maxItems + 1;
      const many = schema.uniqueItems
        ? Array.from({ length: over }, (_, i) => distinct[i % distinct.length])
        : fill(over);
      // With uniqueItems, too many distinct values may not exist: then uniqueItems refuses first.
      if (!schema.uniqueItems || distinct.length >= over) {
        values.push({ field, value: many, why: 'above maxItems' });
      }
    }
    if (schema.uniqueItems) values.push({ field, value: [first, first], why: 'not uniqueItems' });
    for (const item of this.negatives(schema.items ?? {}, `${field}[${count - 1}]`, scope, where)) {
      values.push({ ...item, value: [...fill(count - 1), item.value] });
    }
    return values;
  }

  private objectNegatives(schema: JsonSchema, field: string, scope: string, where: Where): Value[] {
    const values: Value[] = [];
    const properties = schema.properties ?? {};
    const minimal = this.positives(schema, field, scope)[0]!.value as Record<string, unknown>;
    values.push({ field: field || 'body', value: field ? 'not an object' : [], why: 'wrong type' });
    for (const name of schema.required ?? []) {
      const rest = Object.fromEntries(Object.entries(minimal).filter(([key]) => key !== name));
      values.push({ field: join(field, name), value: rest, why: 'missing required' });
    }
    const required = Object.fromEntries(
      Object.entries(minimal).filter(([name]) => schema.required?.includes(name)),
    );
    if (Object.keys(required).length < (schema.minProperties ?? 0)) {
      values.push({ field: field || 'body', value: required, why: 'below minProperties' });
    }
    if (schema.additionalProperties === false) {
      values.push({
        field: join(field, UNKNOWN),
        value: { ...minimal, [UNKNOWN]: 1 },
        why: 'unknown property (additionalProperties: false)',
      });
    }
    for (const [name, property] of Object.entries(properties)) {
      for (const value of this.negatives(property, join(field, name), scope, where)) {
        values.push({ ...value, value: { ...minimal, [name]: value.value } });
      }
    }
    const additional = schema.additionalProperties;
    if (typeof additional === 'object') {
      const names = schema.propertyNames ?? {};
      const [key] = propertyNamesFor(names, 1);
      const good = this.positives(additional, join(field, key!), scope)[0]!.value;
      for (const value of this.negatives(additional, join(field, key!), scope, where)) {
        values.push({ ...value, value: { ...minimal, [key!]: value.value } });
      }
      const badKey = names.pattern ? patternBreaker(names) : undefined;
      if (badKey !== undefined) {
        values.push({
          field: join(field, badKey),
          value: { ...minimal, [badKey]: good },
          why: `key breaks pattern ${names.pattern}`,
        });
      }
      if (names.maxLength !== undefined) {
        const longKey = stringOfLength(names, names.maxLength + 1);
        values.push({ field, value: { ...minimal, [longKey]: good }, why: 'key above maxLength' });
      }
      if (schema.maxProperties !== undefined) {
        const keys = propertyNamesFor(names, schema.maxProperties + 1);
        const many = Object.fromEntries(keys.map((k) => [k, good]));
        values.push({ field, value: { ...minimal, ...many }, why: 'above maxProperties' });
      }
    }
    return values;
  }
}

const typesOf = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : [schema.type].flat();

/** Whether a value's JSON type is one the schema has (an integer is also a number). */
function acceptsType(schema: JsonSchema, value: unknown): boolean {
  const types = typesOf(schema);
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  if (typeof value === 'number') {
    return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  }
  return types.includes(typeof value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A number as the request carries it: text in a path, query or header. */
const lift = (value: number, textual: boolean) => (textual ? String(value) : value);

const join = (field: string, name: string) => (field ? `${field}.${name}` : name);

/** `depends_on[3].job_id` → `depends_on[].job_id`: a fixture serves every item. */
const itemsOf = (field: string) => field.replace(/\[\d+\]/g, '[]');

function put(parts: RequestParts, where: Where, name: string, value: unknown) {
  if (where === 'body') return;
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (where === 'query') parts.query[name] = Array.isArray(value) ? value.map(text) : text(value);
  else parts[where][name] = text(value);
}

const clone = (parts: RequestParts): RequestParts => structuredClone(parts);

/** Matching strings drawn by fast-check with a fixed seed: the same ones on every run. */
function sampled(pattern: string, count: number): string[] {
  return fc.sample(fc.stringMatching(new RegExp(pattern)), { seed: 45, numRuns: count });
}

/** Texts a generated URL or name can carry: well-formed, not `.` or `..` (which URLs resolve). */
const carried = (text: string) => isWellFormed(text) && text !== '.' && text !== '..';

/** A header value HTTP carries as given: visible ASCII and inner spaces (ends are trimmed). */
const sendableInHeader = (value: unknown) =>
  typeof value === 'string' && /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/.test(value);

/** No lone surrogate (which no UTF-8, so no URL, can carry). */
function isWellFormed(text: string) {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A string's length as JSON Schema (and zod) count it: in code points. */
const lengthOf = (text: string) => [...text].length;

function fits(schema: JsonSchema, text: string) {
  return (
    lengthOf(text) >= (schema.minLength ?? 0) &&
    lengthOf(text) <= (schema.maxLength ?? Infinity) &&
    (!schema.pattern || new RegExp(schema.pattern).test(text)) &&
    carried(text)
  );
}

/** The shortest and the longest of a string schema's values: its boundaries. */
function strings(schema: JsonSchema): [string, string][] {
  if (schema.format === 'date-time') return [[new Date().toISOString(), 'a date-time']];
  if (schema.format === 'uri') return [['https://hooks.example.com/jobdeck', 'a uri']];
  const min = schema.minLength ?? 0;
  if (!schema.pattern) {
    const values: [string, string][] = [[''.padEnd(Math.max(min, 1), 'a'), 'short']];
    if (schema.maxLength !== undefined)
      values.push([''.padEnd(schema.maxLength, 'a'), 'maxLength']);
    else values.push([''.padEnd(1000, 'a'), 'long: no maxLength']);
    // Any text the schema does not rule out: where the service refuses one, the document is looser.
    for (const [text, why] of UNRULED_TEXTS) {
      if (lengthOf(text) >= min && lengthOf(text) <= (schema.maxLength ?? Infinity)) {
        values.push([text, why]);
      }
    }
    return values;
  }
  const matching = sampled(schema.pattern, 200).filter((text) => fits(schema, text));
  if (matching.length === 0)
    throw new Error(`no sample of ${schema.pattern} fits ${JSON.stringify(schema)}`);
  const byLength = [...matching].sort((a, b) => lengthOf(a) - lengthOf(b) || (a < b ? -1 : 1));
  const values: [string, string][] = [[byLength[0]!, `matches ${schema.pattern} (shortest drawn)`]];
  const longest = stringOfLength(schema, schema.maxLength ?? lengthOf(byLength.at(-1)!));
  if (longest !== byLength[0]) values.push([longest, `matches ${schema.pattern} (longest)`]);
  return values;
}

/** Texts a string without a pattern may hold: none of them is refused unless the document says so. */
const UNRULED_TEXTS: [string, string][] = [
  ['', 'empty'],
  [' a b ', 'spaces, also at the ends'],
  ['ü✓ 漢字 😀', 'beyond ASCII'],
  ['!@#$%^&*()=/\\', 'punctuation'],
  ['\u0000', 'a NUL'],
  ['\u0007\n', 'control characters'],
];

/**
 * A string of `length` characters close to the schema: a matching one padded from inside when
 * the pattern lets it (the longest boundary), else plain letters.
 */
function stringOfLength(schema: JsonSchema, length: number): string {
  if (schema.pattern) {
    for (const text of sampled(schema.pattern, 200)) {
      const points = [...text];
      if (!carried(text) || points.length === 0) continue;
      // Repeating the last character keeps most patterns matched ([a-z]+, key=value, …).
      const grown =
        points.length >= length
          ? points.slice(0, length).join('')
          : text + points.at(-1)!.repeat(length - points.length);
      if (new RegExp(schema.pattern).test(grown) && lengthOf(grown) === length) return grown;
    }
  }
  return ''.padEnd(length, 'a');
}

/** A text of allowed length that breaks the pattern. */
function patternBreaker(schema: JsonSchema): string | undefined {
  const pattern = new RegExp(schema.pattern!);
  const min = Math.max(schema.minLength ?? 0, 1);
  const candidates = ['!', ' ', '@', 'a b', '/', '-', '.x', '=x', 'a@', 'x', '9'];
  for (const candidate of candidates) {
    const text = candidate.padEnd(min, candidate);
    if (!pattern.test(text) && lengthOf(text) <= (schema.maxLength ?? Infinity)) return text;
  }
  return undefined;
}

function numbers(schema: JsonSchema): [number, string][] {
  const values: [number, string][] = [];
  if (schema.minimum !== undefined) values.push([schema.minimum, 'minimum']);
  if (schema.maximum !== undefined) values.push([schema.maximum, 'maximum']);
  if (values.length === 0) values.push([1, 'a number']);
  return values;
}

/** `count` distinct keys meeting the propertyNames schema. */
function propertyNamesFor(names: JsonSchema, count: number): string[] {
  const keys = new Set<string>();
  if (names.pattern) {
    for (const text of sampled(names.pattern, count * 20)) {
      if (
        fits(names, text) &&
        text !== '' &&
        !['__proto__', 'constructor', 'prototype'].includes(text)
      )
        keys.add(text);
      if (keys.size === count) break;
    }
  } else {
    for (let i = 0; keys.size < count; i++) keys.add(`k${i}`);
  }
  if (keys.size < count) throw new Error(`only ${keys.size} keys of ${count} for ${names.pattern}`);
  return [...keys];
}
