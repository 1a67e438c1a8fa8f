import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GENERATED_CLIENT_TYPES, generateClientTypes } from '../scripts/generate-client';
import { buildOpenApiDocument } from './openapi';

const run = promisify(execFile);

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location?: { pointer: string }[] }[];
}

describe('the OpenAPI document, as other people’s tools see it', () => {
  it('passes redocly lint with its recommended rules', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'jobdeck-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument()));
    // redocly exits non-zero on errors; the JSON report is on stdout either way.
    const { stdout } = await run(
      'npx',
      ['--no', 'redocly', 'lint', file, '--extends=recommended', '--format=json'],
      { timeout: 60_000 },
    ).catch((error: { stdout: string }) => error);
    const report = JSON.parse(stdout) as LintReport;
    // One warning is left, for a reason: JobEvent is unreferenced, since OpenAPI 3.1 cannot give
    // the schema of one server-sent event's data (3.2's itemSchema can). It is there for generators.
    // And GET /v1/auth/session has no 4XX to document: it answers everyone, signed in or not.
    // The exec route's success is a WebSocket's 101 (Switching Protocols), no 2XX.
    const expected = (p: LintReport['problems'][number]) =>
      (p.ruleId === 'no-unused-components' && p.message.includes('"JobEvent"')) ||
      (p.ruleId === 'operation-2xx-response' &&
        p.location?.[0]?.pointer === '#/paths/~1v1~1client~1job~1{job_id}~1exec/get/responses') ||
      (p.ruleId === 'operation-4xx-response' &&
        p.location?.[0]?.pointer === '#/paths/~1v1~1auth~1session/get/responses');
    expect(report.problems.filter((p) => !expected(p))).toEqual([]);
  }, 60_000);

  it('requires the submit body and names no fixed address, so generated clients get both right', () => {
    const document = buildOpenApiDocument() as unknown as {
      servers: { url: string }[];
      paths: Record<string, { post?: { requestBody?: { required?: boolean } } }>;
    };
    expect(document.paths['/v1/client/job']?.post?.requestBody?.required).toBe(true);
    expect(document.servers.map((server) => server.url)).toEqual(['/']);
  });

  it('generates the client types committed in client/src (npm run generate:client)', async () => {
    expect(await generateClientTypes()).toBe(readFileSync(GENERATED_CLIENT_TYPES, 'utf8'));
  }, 30_000);
});
