import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange, requestHead } from './raw-http';
import type { TestService } from './service';
import { detail, logsOf, submit, waitForState } from './jobs';

/**
 * The spec's three operations (Job Submit, Job Detail, Cancel Job) and their exact answers,
 * written once and run on each engine the service runs on: the local Docker Engine
 * (test/service/spec.test.ts) and the Slurm cluster (test/slurm/spec.test.ts). `start` starts
 * the service on the engine with the settings given.
 */
export function describeSpecCases(
  start: (settings: Record<string, unknown>) => Promise<TestService>,
): void {
  let service: TestService;
  beforeAll(async () => {
    service = await start({ body_limit_bytes: 4096 });
  });
  afterAll(() => service?.stop());

  const post = (body: unknown) => service.request('POST', '/v1/client/job', body);
  const base = { job_definition: 't::echo:1', job_queue: 't::default' };
  const jobCount = async () =>
    ((await service.request('GET', '/v1/client/jobs?limit=200')).body.data as { items: unknown[] })
      .items.length;
  const cancel = (id: string) => service.request('POST', `/v1/client/job/${id}/cancel`);

  describe('Job Submit: the command and the environment', () => {
    it('substitutes Param:: words, submission parameters over definition defaults', async () => {
      const id = await submit(service, {
        job_definition: 't::sh:1',
        container_cmd: ['sh', '-c', 'echo "$0 $1"', 'Param::first', 'Param::greeting'],
        container_cmd_parameter: { first: 'one', greeting: 'two' },
      });
      await waitForState(service, id, 'completed');
      expect(await logsOf(service, id)).toBe('one two\n');
    });

    it('runs the definition command with its default parameters when container_cmd is omitted', async () => {
      const id = await submit(service, { job_definition: 't::echo:1' });
      await waitForState(service, id, 'completed');
      expect(await logsOf(service, id)).toBe('hello\n');
    });

    it('merges the environment: definition first, submission on top', async () => {
      const id = await submit(service, {
        job_definition: 't::sh:1',
        container_cmd_parameter: { script: 'echo "$FROM_DEFINITION $OVERRIDDEN $ADDED"' },
        container_env: { OVERRIDDEN: { value: 'mine' }, ADDED: { value: 'new', sensitive: false } },
      });
      await waitForState(service, id, 'completed');
      expect(await logsOf(service, id)).toBe('def mine new\n');
    });

    it('refuses container_cmd with no words, naming the field; storing nothing', async () => {
      const before = await jobCount();
      const response = await post({ ...base, container_cmd: [] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        ok: false,
        message:
          "container_cmd: must have at least one word (leave the field out for the definition's command)",
      });
      expect(await jobCount()).toBe(before);
    });

    it('refuses a Param:: reference to a missing key, naming the element and the key', async () => {
      const response = await post({ ...base, container_cmd: ['echo', 'x', 'Param::region'] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        ok: false,
        message:
          'container_cmd[2]: refers to parameter "region", which container_cmd_parameter does not define',
      });
    });

    it('refuses a second unfinished job with the same name in the queue, giving the holder', async () => {
      const first = await submit(service, { job_definition: 't::sleep:1', name: 'nightly' });
      const response = await post({ ...base, name: 'nightly' });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(
        `name: "nightly" is already held by job ${first} in queue t::default, which has not finished`,
      );
      await service.request('POST', `/v1/client/job/${first}/cancel`);
      await waitForState(service, first, 'cancelled');
      const again = await submit(service, { job_definition: 't::echo:1', name: 'nightly' });
      expect((await detail(service, again)).name).toBe('nightly');
    });
  });

  describe('Job Submit: every bad input is a 400 that names the field', () => {
    const cases: [string, unknown, RegExp][] = [
      ['missing job_definition', { job_queue: 't::default' }, /^job_definition: is required/],
      ['missing job_queue', { job_definition: 't::echo:1' }, /^job_queue: is required/],
      [
        'malformed definition',
        { ...base, job_definition: 'echo' },
        /^job_definition: must look like <project>::<definition>:<version>$/,
      ],
      [
        'malformed queue',
        { ...base, job_queue: 'default' },
        /^job_queue: must look like <project>::<queue>$/,
      ],
      [
        'unknown definition',
        { ...base, job_definition: 't::nope:1' },
        /^job_definition: no definition "t::nope:1" is declared$/,
      ],
      [
        'unknown version',
        { ...base, job_definition: 't::echo:9' },
        /^job_definition: no definition "t::echo:9"/,
      ],
      [
        'unknown queue',
        { ...base, job_queue: 't::nope' },
        /^job_queue: no queue "t::nope" is declared$/,
      ],
      [
        'another project',
        { ...base, job_definition: 'other::echo:1' },
        /^job_definition: project "other" is not this API key's project "t"$/,
      ],
      ['non-string name', { ...base, name: 7 }, /^name: must be a string$/],
      ['bad name characters', { ...base, name: 'a b' }, /^name: may contain only letters/],
      [
        'name too long',
        { ...base, name: 'x'.repeat(129) },
        /^name: must be at most 128 characters$/,
      ],
      [
        'command not an array',
        { ...base, container_cmd: 'echo hi' },
        /^container_cmd: must be an array of strings$/,
      ],
      [
        'command word not a string',
        { ...base, container_cmd: ['echo', 1] },
        /^container_cmd\[1\]: must be a string$/,
      ],
      [
        'parameter value not a string',
        { ...base, container_cmd_parameter: { a: 1 } },
        /^container_cmd_parameter\.a: must be a string$/,
      ],
      [
        'bad env name',
        { ...base, container_env: { '1BAD': { value: 'x' } } },
        /^container_env\.1BAD: is not a valid variable name/,
      ],
      [
        'env entry not an object',
        { ...base, container_env: { A: 'x' } },
        /^container_env\.A: must be an object like/,
      ],
      [
        'env value missing',
        { ...base, container_env: { A: {} } },
        /^container_env\.A\.value: must be a string$/,
      ],
      [
        'sensitive not boolean',
        { ...base, container_env: { A: { value: 'x', sensitive: 'yes' } } },
        /^container_env\.A\.sensitive: must be true or false$/,
      ],
      [
        'schedule_at without zone',
        { ...base, schedule_at: '2030-01-01T10:00:00' },
        /^schedule_at: must be an RFC 3339/,
      ],
      [
        'schedule_at garbage',
        { ...base, schedule_at: 'tomorrow' },
        /^schedule_at: must be an RFC 3339/,
      ],
      [
        'schedule_at too far',
        { ...base, schedule_at: Date.now() / 1000 + 400 * 86400 },
        /^schedule_at: must be at most 365 days ahead$/,
      ],
      ['negative schedule_at', { ...base, schedule_at: -5 }, /^schedule_at: must not be negative$/],
      [
        'unknown field',
        { ...base, contianer_cmd: ['x'] },
        /^contianer_cmd: is not a field of this payload$/,
      ],
      ['array body', [base], /^body must be a JSON object$/],
      [
        'NUL in a command word',
        { ...base, container_cmd: ['echo', 'a\0b'] },
        /^container_cmd\[1\]: must not contain NUL bytes$/,
      ],
      [
        'NUL in a parameter value',
        { ...base, container_cmd_parameter: { greeting: 'a\0' } },
        /^container_cmd_parameter\.greeting: must not contain NUL bytes$/,
      ],
      [
        'NUL in a sensitive env value',
        { ...base, container_env: { TOKEN: { value: 's3cret\0', sensitive: true } } },
        /^container_env\.TOKEN\.value: must not contain NUL bytes$/,
      ],
      [
        'NUL in an env name',
        { ...base, container_env: { 'A\0B': { value: 'x' } } },
        /^container_env\.A.B: is not a valid variable name/,
      ],
      // JSON text: a lone surrogate is valid JSON, but no UTF-8 (and no container) can carry it.
      [
        'a lone surrogate in a sensitive value',
        `{"job_definition":"t::echo:1","job_queue":"t::default","container_env":{"T":{"value":"a\\ud800","sensitive":true}}}`,
        /^container_env\.T\.value: must be well-formed Unicode/,
      ],
      // JSON text, so that "__proto__" is an own key as it is on the wire.
      [
        'a sensitive env named __proto__',
        `{"job_definition":"t::echo:1","job_queue":"t::default","container_env":{"__proto__":{"value":"s3cret","sensitive":true}}}`,
        /^container_env\.__proto__: is a reserved name/,
      ],
      [
        'a parameter named constructor',
        { ...base, container_cmd_parameter: { constructor: 'x' } },
        /^container_cmd_parameter\.constructor: is a reserved name/,
      ],
      [
        'a __proto__ field',
        `{"job_definition":"t::echo:1","job_queue":"t::default","__proto__":{"name":"x"}}`,
        /^__proto__: is not a field of this payload$/,
      ],
    ];
    it.each(cases)('%s', async (_label, body, message) => {
      const before = await jobCount();
      const response = await post(body);
      expect(await jobCount()).toBe(before);
      expect(response.status).toBe(400);
      expect(response.body.ok).toBe(false);
      expect(response.body.message).toMatch(message);
      expect(Object.keys(response.body).sort()).toEqual(['message', 'ok']);
    });

    it('reports every faulty field at once', async () => {
      const response = await post({ job_definition: 1, job_queue: 2 });
      expect(response.body.message).toBe(
        'job_definition: is required and must be a string; job_queue: is required and must be a string',
      );
    });

    it('refuses invalid JSON, an empty body and a foreign content type', async () => {
      expect((await post('{"job_definition":')).body.message).toMatch(/^body: not valid JSON/);
      expect((await post(undefined)).body.message).toBe(
        'body: missing; send the job submission payload as a JSON object',
      );
      const text = await fetch(`${service.baseUrl}/v1/client/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.key}`, 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(text.status).toBe(400);
      expect(await text.json()).toEqual({
        ok: false,
        message: 'Content-Type: must be application/json',
      });
    });

    it('answers 413 for a body over the limit', async () => {
      const response = await post({ ...base, container_cmd: ['echo', 'x'.repeat(5000)] });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        ok: false,
        message: 'body: larger than the limit of 4096 bytes',
      });
    });

    it('answers 405 with Allow for a known path and another method, 404 for unknown paths', async () => {
      // OPTIONS was a 404 like an unknown path's.
      for (const method of ['DELETE', 'OPTIONS']) {
        const wrong = await service.request(method, '/v1/client/job/abc');
        expect(wrong.status, method).toBe(405);
        expect(wrong.headers.get('allow')).toBe('GET');
        expect(wrong.body.message).toBe(
          `method: ${method} is not allowed on /v1/client/job/{job_id}; it takes GET`,
        );
      }
      const missing = await service.request('GET', '/v1/nothing');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ ok: false, message: 'no endpoint GET /v1/nothing' });
    });

    it('answers TRACE on a known path 405 with Allow too (it was a 404)', async () => {
      // fetch refuses to send TRACE, so it goes by hand.
      const trace = await rawExchange(
        service.baseUrl,
        [
          requestHead('TRACE', '/v1/client/jobs', [
            `Authorization: Bearer ${service.key}`,
            'Connection: close',
          ]),
        ],
        5000,
      );
      expect(trace.status).toBe(405);
      expect(trace.text).toMatch(/\r\nallow: GET\r\n/i);
      expect(trace.body).toEqual({
        ok: false,
        message: 'method: TRACE is not allowed on /v1/client/jobs; it takes GET',
      });
    });
  });

  describe('Job Detail', () => {
    it('returns exactly the seven fields of the job record, times in RFC 3339 with milliseconds', async () => {
      const id = await submit(service, { job_definition: 't::echo:1', name: 'seven-fields' });
      const job = await waitForState(service, id, 'completed');
      expect(Object.keys(job).sort()).toEqual(
        ['created_at', 'id', 'name', 'schedule_at', 'state', 'system_note', 'updated_at'].sort(),
      );
      expect(job.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(job.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(job.name).toBe('seven-fields');
    });
  });

  describe('Cancel Job', () => {
    it('cancels a pending job at once', async () => {
      const id = await submit(service, {
        job_definition: 't::echo:1',
        schedule_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      await waitForState(service, id, 'pending');
      const response = await cancel(id);
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ ok: true });
      const job = await detail(service, id);
      expect(job.state).toBe('cancelled');
      expect(job.system_note).toBe('cancelled on request before it started');
    });

    it('refuses to cancel a finished job with 409 naming its state', async () => {
      const id = await submit(service, { job_definition: 't::echo:1' });
      await waitForState(service, id, 'completed');
      const response = await cancel(id);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        ok: false,
        message: `job_id: job ${id} is completed; a completed job cannot be cancelled`,
      });
    });

    it('answers 404 for an unknown job', async () => {
      const response = await cancel('no-such-job');
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('job_id: no job "no-such-job" in this project');
    });
  });
}
