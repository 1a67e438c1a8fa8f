import { describe, expect, it } from 'vitest';
import {
  JOB_STATES,
  cancelEffect,
  fieldErrorsOf,
  formatIssues,
  parseDefinitionRef,
  resolveCommand,
  scheduleAtToMillis,
  submitJobSchema,
} from './index';

describe('the submission schema', () => {
  it('accepts the full payload of the spec', () => {
    const parsed = submitJobSchema.safeParse({
      job_definition: 'demo::hello:1',
      job_queue: 'demo::default',
      name: 'nightly.report-2',
      container_cmd: ['echo', 'Param::who'],
      container_cmd_parameter: { who: 'world' },
      container_env: { TOKEN: { value: 's', sensitive: true }, PLAIN: { value: 'p' } },
      schedule_at: '2026-11-21T10:00:00.000Z',
    });
    expect(parsed.success).toBe(true);
  });

  it('names every faulty field in one message that the console can split again', () => {
    const parsed = submitJobSchema.safeParse({
      job_definition: 'demo',
      job_queue: 'demo::default',
      container_cmd: ['ok', 5],
    });
    expect(parsed.success).toBe(false);
    const message = formatIssues(parsed.error!.issues);
    expect(message).toBe(
      'job_definition: must look like <project>::<definition>:<version>; container_cmd[1]: must be a string',
    );
    expect(fieldErrorsOf(message)).toEqual([
      { field: 'job_definition', reason: 'must look like <project>::<definition>:<version>' },
      { field: 'container_cmd[1]', reason: 'must be a string' },
    ]);
  });
});

describe('hostile keys and bytes', () => {
  const base = { job_definition: 'demo::hello:1', job_queue: 'demo::default' };
  const messageOf = (body: string) => {
    const parsed = submitJobSchema.safeParse(JSON.parse(body));
    return parsed.success ? 'accepted' : formatIssues(parsed.error.issues);
  };
  const withBase = (rest: string) =>
    `{"job_definition":"demo::hello:1","job_queue":"demo::default",${rest}}`;

  it('refuses __proto__, constructor and prototype as keys in every object, by name', () => {
    // JSON.parse keeps "__proto__" as an own key; the schema must see it, not drop it.
    expect(
      messageOf(withBase('"container_env":{"__proto__":{"value":"s","sensitive":true}}')),
    ).toBe(
      'container_env.__proto__: is a reserved name (__proto__, constructor, prototype are not allowed as keys)',
    );
    expect(messageOf(withBase('"container_env":{"constructor":{"value":"s"}}'))).toMatch(
      /^container_env\.constructor: is a reserved name/,
    );
    expect(messageOf(withBase('"container_cmd_parameter":{"prototype":"x"}'))).toMatch(
      /^container_cmd_parameter\.prototype: is a reserved name/,
    );
    expect(messageOf(withBase('"__proto__":{"name":"x"}'))).toBe(
      '__proto__: is not a field of this payload',
    );
    expect(messageOf(withBase('"container_env":{"A":{"value":"v","constructor":{}}}'))).toBe(
      'container_env.A.constructor: is not a field of this payload',
    );
    // Nothing leaked onto Object.prototype while checking.
    expect(({} as Record<string, unknown>).sensitive).toBeUndefined();
  });

  it('refuses NUL bytes in command words, parameters, env names and values, and lone surrogates', () => {
    const nul = '\0';
    const cases: [Record<string, unknown>, string][] = [
      [{ container_cmd: ['echo', `a${nul}b`] }, 'container_cmd[1]: must not contain NUL bytes'],
      [
        { container_cmd_parameter: { p: `a${nul}` } },
        'container_cmd_parameter.p: must not contain NUL bytes',
      ],
      [
        { container_env: { T: { value: `s${nul}`, sensitive: true } } },
        'container_env.T.value: must not contain NUL bytes',
      ],
      [
        { container_env: { [`T${nul}`]: { value: 's' } } },
        `container_env.T${nul}: is not a valid variable name (use [A-Za-z_][A-Za-z0-9_]*)`,
      ],
    ];
    cases.push([
      { container_env: { T: { value: 'a\ud800b', sensitive: true } } },
      'container_env.T.value: must be well-formed Unicode (no lone surrogate \\uD800–\\uDFFF)',
    ]);
    for (const [extra, message] of cases) {
      const parsed = submitJobSchema.safeParse({ ...base, ...extra });
      expect(parsed.success ? 'accepted' : formatIssues(parsed.error.issues)).toBe(message);
    }
  });
});

describe('identifiers and commands', () => {
  it('parses definition references', () => {
    expect(parseDefinitionRef('demo::hello:1')).toEqual({
      project: 'demo',
      name: 'hello',
      version: '1',
    });
    expect(parseDefinitionRef('demo::hello')).toBeNull();
  });

  it('resolves Param:: words and reports the first missing key with its index', () => {
    expect(resolveCommand(['a', 'Param::x', 'Param::x'], { x: 'y' })).toEqual({
      ok: true,
      command: ['a', 'y', 'y'],
    });
    expect(resolveCommand(['a', 'Param::x', 'Param::z'], { x: 'y' })).toEqual({
      ok: false,
      index: 2,
      key: 'z',
    });
    // Inherited object keys are not parameters.
    expect(resolveCommand(['Param::toString'], {})).toEqual({
      ok: false,
      index: 0,
      key: 'toString',
    });
  });

  it('reads schedule_at in both forms', () => {
    expect(scheduleAtToMillis(1_700_000_000)).toBe(1_700_000_000_000);
    expect(scheduleAtToMillis('2026-11-21T12:00:00.000+02:00')).toBe(
      Date.parse('2026-11-21T10:00:00.000Z'),
    );
  });
});

describe('cancel effects', () => {
  it('follow docs/api.md for every state', () => {
    expect(Object.fromEntries(JOB_STATES.map((state) => [state, cancelEffect(state)]))).toEqual({
      submitted: 'cancel-now',
      pending: 'cancel-now',
      runnable: 'cancel-now',
      starting: 'stop-container',
      running: 'stop-container',
      cancelling: 'already-cancelling',
      cancelled: 'already-cancelling',
      timeout: 'refused',
      completed: 'refused',
      failed: 'refused',
      error: 'refused',
    });
  });
});
