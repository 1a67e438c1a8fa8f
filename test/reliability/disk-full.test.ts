import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../support/service';
import { recordFigure } from './figures';

// A data directory on a small tmpfs of its own (mounting needs root, as CI runs).
const asRoot = userInfo().uid === 0;
const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-full-'));
const filler = join(dataDir, 'filler');
let service: TestService;

beforeAll(async () => {
  if (!asRoot) return;
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dataDir]);
  service = await startService({}, dataDir);
});
afterAll(async () => {
  await service?.stop();
  if (asRoot) execFileSync('umount', ['-l', dataDir]);
  rmSync(dataDir, { recursive: true, force: true });
});

const submit = () =>
  service.request('POST', '/v1/client/job', {
    job_definition: 't::echo:1',
    job_queue: 't::paused',
  });

describe.runIf(asRoot)("the store's disk full (SQLite)", () => {
  it('answers 503 saying so, tells readiness, loses nothing, and recovers once there is room', async () => {
    const { bavail, bsize } = statfsSync(dataDir);
    writeFileSync(filler, Buffer.alloc(Math.max(0, Number(bavail) * Number(bsize) - 256 * 1024)));
    const accepted: string[] = [];
    const statuses = new Map<number, number>();
    let refusal: { status: number; message?: string } | undefined;
    for (let i = 0; i < 5_000 && !refusal; i += 1) {
      const answer = await submit();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 202) accepted.push((answer.body.data as { id: string }).id);
      else refusal = { status: answer.status, message: answer.body.message };
    }
    expect(refusal).toEqual({
      status: 503,
      message:
        'store: its disk is full, so nothing could be written; retry once an operator has freed space (the service log says where)',
    });
    const ready = await service.request('GET', '/readyz', undefined, null);
    expect([ready.status, ready.body.message]).toEqual([503, 'store: disk full']);
    const cancel = await service.request('POST', `/v1/client/job/${accepted[0]}/cancel`);
    expect([202, 503]).toContain(cancel.status);
    expect(service.output()).toContain("the store's disk is full");
    expect(service.output()).not.toContain('cannot rollback');

    rmSync(filler);
    expect((await submit()).status).toBe(202);
    const started = Date.now();
    while ((await service.request('GET', '/readyz', undefined, null)).status !== 200) {
      expect(Date.now() - started).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const id of accepted) {
      expect((await service.request('GET', `/v1/client/job/${id}`)).status).toBe(200);
    }
    expect(statuses.get(500)).toBeUndefined();
    recordFigure(
      "the store's disk full (SQLite on a 16 MiB tmpfs)",
      `${accepted.length} submits accepted, then 503 "store: its disk is full"; readiness 503 "store: disk full"; all ${accepted.length} readable; ready again ${((Date.now() - started) / 1000).toFixed(1)} s after space was freed (was: 500 internal error, "cannot rollback" in the log, readiness 200)`,
    );
  }, 180_000);
});
