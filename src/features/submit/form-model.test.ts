import { describe, expect, it } from 'vitest';
import { IDENTIFIER_MESSAGES, type JobExecution } from '../../../contract';
import { splitCommandLine } from './CommandEditor';
import {
  emptyForm,
  errorsFromMessage,
  formFromExecution,
  formFromPayload,
  payloadFromForm,
  unusedParameterKeys,
  type SubmitFormValues,
} from './form-model';
import { validateForm } from './validate-form';
import { curlCommand, redactedPayload } from './redact';

const valid = (): SubmitFormValues => ({
  ...emptyForm(),
  job_definition: 'demo::hello:1',
  job_queue: 'demo::default',
});

describe('validateForm', () => {
  it('accepts the minimal payload', () => {
    expect(validateForm(valid())).toEqual({});
  });

  it('names malformed identifiers at their fields', () => {
    expect(validateForm({ ...valid(), job_definition: 'hello', job_queue: '' })).toMatchObject({
      job_definition: 'must look like <project>::<definition>:<version>',
      job_queue: 'is required',
    });
  });

  it('flags references to missing parameters at the word, and duplicate keys at the key', () => {
    const errors = validateForm({
      ...valid(),
      command: [{ word: 'echo' }, { word: 'Param::a' }, { word: 'Param::b' }],
      parameters: [
        { key: 'a', value: '1' },
        { key: 'a', value: '2' },
      ],
    });
    expect(errors['command.2.word']).toBe(
      'refers to parameter "b", which the parameters below do not define',
    );
    expect(errors['command.1.word']).toBeUndefined();
    expect(errors['parameters.1.key']).toBe('duplicate key "a"');
  });

  it('checks env names and a schedule for the chosen mode', () => {
    const errors = validateForm({
      ...valid(),
      env: [{ name: '1X', value: '', sensitive: false }],
      scheduleMode: 'unix',
      scheduleUnix: 'soon',
    });
    expect(errors['env.0.name']).toBe(IDENTIFIER_MESSAGES.envName);
    expect(errors.scheduleUnix).toBe('enter Unix seconds');
  });

  it('applies the contract too (the schedule limit)', () => {
    const farAhead = String(Math.floor(Date.now() / 1000) + 400 * 86400);
    expect(
      validateForm({ ...valid(), scheduleMode: 'unix', scheduleUnix: farAhead }),
    ).toMatchObject({
      scheduleUnix: 'must be at most 365 days ahead',
    });
  });

  it('applies the contract to hostile names and bytes, at the field', () => {
    const errors = validateForm({
      ...valid(),
      command: [{ word: 'a\0b' }],
      parameters: [{ key: 'constructor', value: 'x' }],
      env: [{ name: '__proto__', value: 'secret', sensitive: true }],
    });
    expect(errors['env.0.name']).toMatch(/^is a reserved name/);
    expect(errors['command.0.word']).toBe('must not contain NUL bytes');
    expect(errors['parameters.0.value']).toMatch(/^is a reserved name/);
  });

  it('warns about parameters no word uses', () => {
    const values = {
      ...valid(),
      command: [{ word: 'Param::a' }],
      parameters: [
        { key: 'a', value: '' },
        { key: 'b', value: '' },
      ],
    };
    expect([...unusedParameterKeys(values)]).toEqual(['b']);
  });
});

describe('payload round trip', () => {
  it('leaves out what is empty and keeps what is given', () => {
    expect(payloadFromForm(valid())).toEqual({
      job_definition: 'demo::hello:1',
      job_queue: 'demo::default',
    });
    const payload = {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::default',
      name: 'n',
      container_cmd: ['echo', 'Param::x'],
      container_cmd_parameter: { x: 'y' },
      container_env: { A: { value: '1' }, S: { value: 's', sensitive: true } },
      schedule_at: 1_900_000_000,
    };
    expect(payloadFromForm(formFromPayload(payload))).toEqual(payload);
  });

  it('sends a local date-time as a UTC instant', () => {
    const values = {
      ...valid(),
      scheduleMode: 'datetime' as const,
      scheduleLocal: '2027-01-02 03:04:05',
    };
    expect(payloadFromForm(values).schedule_at).toBe(new Date(2027, 0, 2, 3, 4, 5).toISOString());
  });
});

describe('labels', () => {
  it('are sent as an object, and come back from a payload in their order', () => {
    const payload = {
      job_definition: 'demo::hello:1',
      job_queue: 'demo::default',
      labels: { ticket: 'OPS-42', 'dataset/name': 'sales' },
    };
    const values = formFromPayload(payload);
    expect(values.labels).toEqual([
      { key: 'ticket', value: 'OPS-42' },
      { key: 'dataset/name', value: 'sales' },
    ]);
    expect(payloadFromForm(values)).toEqual(payload);
  });

  it('name a bad or repeated key at its row, and a refused value at its value', () => {
    const values = {
      ...valid(),
      labels: [
        { key: 'bad key', value: 'x' },
        { key: 'team', value: 'a' },
        { key: 'team', value: 'b' },
        { key: '', value: 'c' },
        { key: 'long', value: 'x'.repeat(257) },
      ],
    };
    const errors = validateForm(values);
    expect(errors['labels.0.key']).toMatch(/^is not a valid label key/);
    expect(errors['labels.2.key']).toBe('duplicate label "team"');
    expect(errors['labels.3.key']).toBe('is required');
    const { fields } = errorsFromMessage('labels.long: must be at most 256 bytes', values);
    expect(fields).toEqual({ 'labels.4.value': 'must be at most 256 bytes' });
  });
});

describe('server messages onto fields', () => {
  it('maps each `field: reason` to its control; the rest stays general', () => {
    const values = {
      ...valid(),
      parameters: [{ key: 'region', value: '' }],
      env: [{ name: 'TOKEN', value: '', sensitive: true }],
    };
    const { fields, general } = errorsFromMessage(
      'container_cmd[2]: refers to parameter "zone"; container_cmd_parameter.region: must be a string; container_env.TOKEN.value: too long; job_queue: no queue "demo::x" is declared; something: else',
      values,
    );
    expect(fields).toEqual({
      'command.2.word': 'refers to parameter "zone"',
      'parameters.0.value': 'must be a string',
      'env.0.value': 'too long',
      job_queue: 'no queue "demo::x" is declared',
    });
    expect(general).toEqual(['something: else']);
  });

  it('keeps a message with no field whole', () => {
    expect(errorsFromMessage('internal error', valid())).toEqual({
      fields: {},
      general: ['internal error'],
    });
  });
});

describe('secrets in previews', () => {
  it('redacts sensitive values in the JSON and the curl command, never the plain ones', () => {
    const payload = {
      ...payloadFromForm(valid()),
      container_env: { S: { value: 'hunter2', sensitive: true }, P: { value: 'plain' } },
    };
    expect(JSON.stringify(redactedPayload(payload))).not.toContain('hunter2');
    const curl = curlCommand(payload, 'http://127.0.0.1:8081');
    expect(curl).not.toContain('hunter2');
    expect(curl).toContain('plain');
    expect(curl).toContain('$JOBDECK_API_KEY');
  });
});

describe('a secret blanked by Submit again or Retry', () => {
  const execution: JobExecution = {
    job_definition: 'demo::shell:1',
    job_queue: 'demo::default',
    image: 'jobdeck/busybox:local',
    command: ['sh', '-c', 'test -n "$TOKEN"'],
    // What the service answers: a sensitive value never comes back.
    env: [
      { name: 'TOKEN', sensitive: true, value: null },
      { name: 'PLAIN', sensitive: false, value: 'kept' },
    ],
    limits: { cpus: 1, memory_bytes: 268_435_456, timeout_seconds: 3600 },
    exit_code: 0,
    started_at: null,
    finished_at: null,
    duration_ms: null,
    engine: 'docker',
    instance: null,
    node: null,
  };
  const blanked = () => formFromExecution(execution);

  it('is refused at its field until typed again, never sent empty', () => {
    expect(validateForm(blanked())).toEqual({
      'env.0.value':
        'is empty: type the secret again (sensitive values are never kept), or remove the variable',
    });
    const typed = blanked();
    typed.env[0]!.value = 'second-secret';
    expect(validateForm(typed)).toEqual({});
  });

  it('may be removed instead', () => {
    const removed = blanked();
    removed.env.splice(0, 1);
    expect(validateForm(removed)).toEqual({});
  });

  it('is never previewed as <redacted>: that would claim a value where none is typed', () => {
    const payload = payloadFromForm(blanked());
    expect(redactedPayload(payload).container_env).toEqual({
      TOKEN: { value: '', sensitive: true },
      PLAIN: { value: 'kept' },
    });
    const typed = blanked();
    typed.env[0]!.value = 'second-secret';
    expect(redactedPayload(payloadFromForm(typed)).container_env?.TOKEN?.value).toBe('<redacted>');
  });
});

describe('splitCommandLine', () => {
  it('splits like a shell, keeping quoted words whole', () => {
    expect(splitCommandLine(`sh -c 'echo "a b"' "c d" e\\ f`)).toEqual([
      'sh',
      '-c',
      'echo "a b"',
      'c d',
      'e f',
    ]);
  });
});
