import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContainerLogs, OutputLine } from '../../server/jobs/model';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';
import { DRIVERS } from './drivers';
import { keepOutput, newJob, T0 } from './new-job';

const at = (n: number) =>
  `2026-11-21T10:00:${String(Math.floor(n / 1000) % 60).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}000000Z`;

/** A chatty job's output: `count` numbered lines of about 100 bytes. */
function chattyLines(count: number): OutputLine[] {
  return Array.from({ length: count }, (_, i) => ({
    stream: i % 10 === 9 ? 'stderr' : 'stdout',
    at: at(i),
    text: `line ${String(i + 1).padStart(5, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`,
  }));
}

/** Output that does not compress: about `bytes` stored, whatever the codec. */
function noise(bytes: number): ContainerLogs {
  return {
    lines: [{ stream: 'stdout', at: at(1), text: `${randomBytes(bytes).toString('base64')}\n` }],
    truncated: false,
  };
}

describe.each(DRIVERS)('Job output on $name', (driver) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(await driver.fresh());
  });
  afterEach(() => store.close());

  async function jobOf(project: string): Promise<string> {
    const job = newJob({ project, queue: `${project}::default`, definition: `${project}::echo:1` });
    await store.jobs.insertJob(job, 'fingerprint');
    return job.id;
  }

  it('keeps 15,000 lines whole and in order, with what was kept of what was printed', async () => {
    const id = await jobOf('p');
    const lines = chattyLines(15_000);
    const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line.text), 0);
    const sizes = { kept: { lines: 15_000, bytes }, printed: { lines: 15_000, bytes } };
    await keepOutput(
      store.jobs,
      id,
      { lines, truncated: false, sizes },
      {
        project: 'p',
        maxStoredBytes: 1024 ** 2,
        savedAt: T0,
      },
    );
    expect(await store.jobs.getLogs(id)).toEqual({ lines, truncated: false, sizes });
  });

  it('keeps an output only with the move that ends the job: a move that lost its compare-and-set keeps none', async () => {
    const id = await jobOf('p');
    const budget = { project: 'p', maxStoredBytes: 1024 ** 2, savedAt: T0 };
    const ending = { id, to: 'completed' as const, at: T0, note: null };
    const logs = { lines: chattyLines(3), truncated: false };
    // The job is in `submitted`: a move from `running` finds it moved already.
    const lost = await store.jobs.moveJob({
      ...ending,
      from: 'running',
      keptOutput: { logs: noise(100), budget },
    });
    expect(lost).toBeUndefined();
    expect(await store.jobs.getLogs(id)).toBeUndefined();
    const won = await store.jobs.moveJob({
      ...ending,
      from: 'submitted',
      keptOutput: { logs, budget },
    });
    expect(won?.state).toBe('completed');
    expect(await store.jobs.getLogs(id)).toEqual(logs);
  });

  it('drops the outputs kept the longest ago while the project takes more than its budget', async () => {
    // Each output stores about 8 KB: two fit in 20 KB, three do not.
    const budget = (savedAt: number) => ({ project: 'p', maxStoredBytes: 20_000, savedAt });
    const printed = { lines: 1, bytes: 10_000 };
    const kept = (logs: ContainerLogs) => ({
      ...logs,
      sizes: { kept: { lines: 1, bytes: 10_000 }, printed },
    });
    const [first, older, newest] = [await jobOf('p'), await jobOf('p'), await jobOf('p')];
    const other = await jobOf('q');
    const otherOutput = kept(noise(7_500));
    await keepOutput(store.jobs, other, otherOutput, { ...budget(T0), project: 'q' });
    const firstOutput = kept(noise(7_500));
    await keepOutput(store.jobs, first, firstOutput, budget(T0 + 200));
    await keepOutput(store.jobs, older, kept(noise(7_500)), budget(T0 + 100));
    expect((await store.jobs.getLogs(older))!.lines).toHaveLength(1); // two fit
    const newestOutput = kept(noise(7_500));
    await keepOutput(store.jobs, newest, newestOutput, budget(T0 + 300));

    // Kept the longest ago (not saved first): dropped, saying so.
    expect(await store.jobs.getLogs(older)).toEqual({
      lines: [],
      text: '',
      truncated: true,
      sizes: { kept: { lines: 0, bytes: 0 }, printed },
    });
    expect(await store.jobs.getLogs(first)).toEqual(firstOutput);
    expect(await store.jobs.getLogs(newest)).toEqual(newestOutput);
    expect(await store.jobs.getLogs(other)).toEqual(otherOutput); // another project's budget
  });

  it('counts an output kept again (another attempt) once, and what it dropped no more', async () => {
    // About 8 KB each in 20 KB: two fit. A running total (migration 015) that counted a
    // replaced output twice, or kept counting dropped ones, would drop more than the oldest.
    const budget = (savedAt: number) => ({ project: 'p', maxStoredBytes: 20_000, savedAt });
    const again = await jobOf('p');
    await keepOutput(store.jobs, again, noise(7_500), budget(T0));
    await keepOutput(store.jobs, again, noise(7_500), budget(T0 + 1));
    const next = await jobOf('p');
    await keepOutput(store.jobs, next, noise(7_500), budget(T0 + 2));
    expect((await store.jobs.getLogs(again))!.lines).toHaveLength(1);
    const ids = [again, next];
    for (let i = 0; i < 8; i += 1) {
      ids.push(await jobOf('p'));
      await keepOutput(store.jobs, ids.at(-1)!, noise(7_500), budget(T0 + 3 + i));
    }
    const held = await Promise.all(
      ids.map(async (id) => (await store.jobs.getLogs(id))!.lines.length),
    );
    expect(held).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 1]);
  });

  it('never drops the output just kept, even alone over the budget', async () => {
    const [first, second] = [await jobOf('p'), await jobOf('p')];
    const budget = (savedAt: number) => ({ project: 'p', maxStoredBytes: 1, savedAt });
    await keepOutput(store.jobs, first, noise(100), budget(T0));
    const output = noise(100);
    await keepOutput(store.jobs, second, output, budget(T0 + 1));
    expect(await store.jobs.getLogs(second)).toEqual(output);
    expect(await store.jobs.getLogs(first)).toEqual({ lines: [], text: '', truncated: true });
  });
});
