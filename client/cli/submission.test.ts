import { describe, expect, it } from 'vitest';
import { keyValue, scheduleAtOf, submissionOf } from './submission';
import { exitStatusOf } from './job-end';

describe('a submit from the command line', () => {
  it('sends only what was given: the spec payload when no extension flag is', () => {
    expect(submissionOf('t::echo:1', 't::default', [], {}, {})).toEqual({
      job_definition: 't::echo:1',
      job_queue: 't::default',
    });
  });

  it('maps every flag to its field, secrets marked sensitive', () => {
    const body = submissionOf(
      't::sh:1',
      't::default',
      ['sh', '-c', 'echo Param::who'],
      {
        name: 'n1',
        param: ['who=a=b'],
        env: ['PLAIN=1'],
        label: ['team=data'],
        array: '3',
        dependsOn: ['a1', 'b2:afterany'],
        retry: '2',
      },
      { TOKEN: 's3cret' },
    );
    expect(body).toEqual({
      job_definition: 't::sh:1',
      job_queue: 't::default',
      name: 'n1',
      container_cmd: ['sh', '-c', 'echo Param::who'],
      container_cmd_parameter: { who: 'a=b' },
      container_env: { PLAIN: { value: '1' }, TOKEN: { value: 's3cret', sensitive: true } },
      labels: { team: 'data' },
      array: { size: 3 },
      depends_on: [{ job_id: 'a1' }, { job_id: 'b2', type: 'afterany' }],
      retry: { attempts: 2 },
    });
  });

  it('names the flag and the reason for a malformed value', () => {
    expect(() => keyValue('--param', 'novalue')).toThrow(
      '--param: must be KEY=VALUE (got "novalue")',
    );
    expect(() => submissionOf('d', 'q', [], { array: '0' }, {})).toThrow(
      '--array: must be a whole number of at least 1 (got "0")',
    );
    expect(() => submissionOf(undefined, undefined, [], {}, {})).toThrow(/needs a job definition/);
  });

  it('takes times as the spec does, and +10m from now', () => {
    const now = Date.parse('2026-12-07T10:00:00.000Z');
    expect(scheduleAtOf('+10m', now)).toBe('2026-12-07T10:10:00.000Z');
    expect(scheduleAtOf('1796000000', now)).toBe(1796000000);
    expect(scheduleAtOf('2026-12-08T02:00:00.000Z', now)).toBe('2026-12-08T02:00:00.000Z');
  });
});

describe("watch's exit status", () => {
  it("is 0 for completed, the job's code when it failed, and fixed codes otherwise", () => {
    expect(exitStatusOf('completed', 0)).toBe(0);
    expect(exitStatusOf('failed', 3)).toBe(3);
    expect(exitStatusOf('failed', null)).toBe(1);
    expect(exitStatusOf('timeout', 137)).toBe(124);
    expect(exitStatusOf('cancelled', 143)).toBe(130);
    expect(exitStatusOf('error', null)).toBe(125);
  });
});
