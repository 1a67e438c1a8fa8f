import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogInstant } from '../../server/jobs/log-instant';
import { startDomain } from './harness';

let domain: Awaited<ReturnType<typeof startDomain>>;
afterEach(() => domain.close());

describe('following the output of a running job, on a fake engine', () => {
  it('reads new lines from the engine while it runs, then the stored tail', async () => {
    domain = await startDomain();
    const secret = randomBytes(12).toString('hex');
    const id = await domain.submit({
      container_env: { TOKEN: { value: secret, sensitive: true } },
    });
    const logs = (after: LogInstant | null) => domain.system.reads.logs('t', id, after);

    const waiting = await logs(null);
    expect(waiting).toMatchObject({ lines: [], truncated: false });
    expect(waiting.next).not.toBeNull();

    await domain.waitFor(id, 'running');
    domain.engine.print(id, 'one\n');
    domain.engine.print(id, `token ${secret}\n`, 'stderr');
    const first = await logs(waiting.next);
    expect(first.lines.map((l) => [l.stream, l.text])).toEqual([
      ['stdout', 'one\n'],
      ['stderr', 'token [TOKEN redacted]\n'],
    ]);
    expect(await logs(first.next)).toMatchObject({ lines: [], next: first.next });

    domain.engine.print(id, 'two\n');
    const second = await logs(first.next);
    expect(second.lines.map((l) => l.text)).toEqual(['two\n']);

    domain.engine.exit(id, 0, 'three\n');
    await domain.waitFor(id, 'completed');
    const after = await logs(second.next);
    expect(after.lines.map((l) => l.text)).toEqual(['three\n']);
    expect(after.next).toBeNull();
    const all = await logs(null);
    expect(all.lines.map((l) => l.text).join('')).toBe('one\ntoken [TOKEN redacted]\ntwo\nthree\n');
    expect(JSON.stringify(all)).not.toContain(secret);
  });
});
