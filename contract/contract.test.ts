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
  it('follow PRODUCT.md for every state', () => {
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
