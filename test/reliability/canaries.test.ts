import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForState } from '../support/jobs';
import { startService, type TestService } from '../support/service';
import { recordFigure } from './figures';

let service: TestService;
beforeAll(async () => {
  // trace: a line per request too, so the service's whole output is searched.
  service = await startService({ log_level: 'trace' });
});
afterAll(() => service.stop());

const CANARIES = 32;
const PER_JOB = 8;

/** A canary and the forms it could leak in: as is, base64 and hex. */
function canary(i: number) {
  const value = `canary-${i}-${randomBytes(12).toString('hex')}`;
  const bytes = Buffer.from(value);
  return {
    name: `CANARY_${i}`,
    value,
    sha256: createHash('sha256').update(value).digest('hex'),
    forms: [value, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')],
  };
}

/** Every occurrence of any form of any canary in `haystack`, as `where: form`. */
function hits(haystack: Buffer | string, where: string, canaries: ReturnType<typeof canary>[]) {
  const found: string[] = [];
  for (const c of canaries) {
    for (const form of c.forms)
      if (haystack.includes(form)) found.push(`${where}: ${c.name} (${form.slice(0, 12)}…)`);
  }
  return found;
}

describe('32 canaries as sensitive values', () => {
  it('each reaches its job and appears nowhere else, in any form', async () => {
    const canaries = Array.from({ length: CANARIES }, (_, i) => canary(i));
    const ids: string[] = [];
    const seen: string[] = [];
    for (let start = 0; start < CANARIES; start += PER_JOB) {
      const batch = canaries.slice(start, start + PER_JOB);
      // The job proves it got each value by its hash, then also prints them (redaction's job).
      const checks = batch.map(
        (c) => `test "$(printf %s "$${c.name}" | sha256sum | cut -d' ' -f1)" = ${c.sha256}`,
      );
      const script = `${checks.join(' && ')} && echo received ${batch.length} && echo ${batch.map((c) => `"$${c.name}"`).join(' ')}`;
      const submitted = await service.request('POST', '/v1/client/job', {
        job_definition: 't::sh:1',
        job_queue: 't::default',
        container_cmd_parameter: { script },
        container_env: Object.fromEntries(
          batch.map((c) => [c.name, { value: c.value, sensitive: true }]),
        ),
      });
      expect(submitted.status).toBe(202);
      seen.push(submitted.text);
      ids.push((submitted.body.data as { id: string }).id);
    }
    for (const id of ids) {
      const job = await waitForState(service, id, ['completed', 'failed', 'error'], 60_000);
      expect(job.state, `${id}: ${job.system_note}`).toBe('completed');
      const logs = await service.request('GET', `/v1/client/job/${id}/logs`);
      expect((logs.body.data as { text: string }).text).toMatch(
        new RegExp(`^received ${PER_JOB}\\n`),
      );
      for (const path of ['', '/logs', '/transitions']) {
        seen.push((await service.request('GET', `/v1/client/job/${id}${path}`)).text);
      }
      seen.push((await service.request('POST', `/v1/client/job/${id}/cancel`)).text);
    }
    seen.push((await service.request('GET', '/v1/client/jobs?limit=200')).text);

    const found = [
      ...seen.flatMap((text, i) => hits(text, `response ${i}`, canaries)),
      ...hits(service.output(), 'service output', canaries),
      ...readdirSync(service.dataDir)
        .filter((file) => file.startsWith('jobdeck.sqlite'))
        .flatMap((file) => hits(readFileSync(join(service.dataDir, file)), file, canaries)),
    ];
    expect(found).toEqual([]);

    // The search can fail: the same forms are found where they are meant to be.
    expect(hits(JSON.stringify(canaries.map((c) => c.forms)), 'control', canaries)).toHaveLength(
      CANARIES * 4,
    );
    const files = readdirSync(service.dataDir).filter((f) => f.startsWith('jobdeck.sqlite'));
    recordFigure('canaries: sensitive values each job received (by hash)', CANARIES, 'values');
    recordFigure(
      'canaries: places searched (responses, output, database files)',
      seen.length + 1 + files.length,
      'places',
    );
    recordFigure('canaries: hits in raw, base64 or hex form', found.length, 'hits');
  });
});
