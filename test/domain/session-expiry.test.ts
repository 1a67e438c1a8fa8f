import { hash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSessions, type SessionSettings } from '../../server/auth/console-sessions';
import { configSchema } from '../../server/config/schema';
import { openStore } from '../../server/store/open-store';
import type { Store } from '../../server/store/ports';

/** Idle and absolute session ends on a clock the test moves, over a real (SQLite) store. */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let storage: Store;
let now = Date.parse('2026-12-07T09:00:00Z');
const clock = () => now;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobdeck-sessions-'));
  storage = await openStore(configSchema.parse({ projects: {}, data_dir: dir }));
});
afterAll(() => storage.close());

function sessionsWith(settings: Partial<SessionSettings>) {
  return new ConsoleSessions(
    storage.users,
    storage.members,
    storage.sessions,
    {
      idleMs: 30 * MINUTE,
      maxMs: 8 * HOUR,
      failuresAllowed: 5,
      failureWindowMs: 15 * MINUTE,
      ...settings,
    },
    clock,
  );
}

let signIns = 0;
const signIn = (sessions: ConsoleSessions) =>
  sessions.start({
    identity: `user${++signIns}@example.test`,
    subjectIdentity: null,
    name: null,
    source: 'local',
    groupRoles: [],
  });

/** Uses the session every `everyMs` until `forMs` have passed: whether each use found it live. */
async function useEvery(sessions: ConsoleSessions, token: string, everyMs: number, forMs: number) {
  const live: boolean[] = [];
  for (let waited = everyMs; waited <= forMs; waited += everyMs) {
    now += everyMs;
    live.push((await sessions.resolve(token)) !== undefined);
  }
  return live;
}

describe('a console session', () => {
  it('ends once unused for the idle time, and not a moment before', async () => {
    const sessions = sessionsWith({});
    const used = await signIn(sessions);
    const unused = await signIn(sessions);
    now += 30 * MINUTE - 1;
    expect(await sessions.resolve(used)).toBeDefined();
    now += 1;
    expect(await sessions.resolve(unused)).toBeUndefined();
    expect(await sessions.resolve(used), 'used a moment ago').toBeDefined();
    now += 30 * MINUTE;
    expect(await sessions.resolve(used)).toBeUndefined();
  });

  it('is kept by use past the idle time, up to its absolute end and not past it', async () => {
    const sessions = sessionsWith({});
    const started = now;
    const token = await signIn(sessions);
    const live = await useEvery(sessions, token, 25 * MINUTE, 8 * HOUR - 1);
    expect(live.every(Boolean), 'used every 25 minutes for 8 hours').toBe(true);
    now = started + 8 * HOUR - 1;
    expect(await sessions.resolve(token)).toBeDefined();
    now = started + 8 * HOUR;
    expect(await sessions.resolve(token), 'at its absolute end, used a moment ago').toBeUndefined();
  });

  it('is kept by use when the idle time is shorter than the interval its use is written at', async () => {
    const sessions = sessionsWith({ idleMs: MINUTE });
    const token = await signIn(sessions);
    expect(await useEvery(sessions, token, 50_000, 10 * MINUTE)).not.toContain(false);
    now += MINUTE;
    expect(await sessions.resolve(token)).toBeUndefined();
  });

  it('is deleted from the store by the pruning pass once past either end', async () => {
    const sessions = sessionsWith({});
    const idle = await signIn(sessions);
    const kept = await signIn(sessions);
    now += 20 * MINUTE;
    await sessions.resolve(kept);
    now += 10 * MINUTE;
    await sessions.prune();
    const [idleRow, keptRow] = await Promise.all(
      [idle, kept].map((token) => storage.sessions.get(hash('sha256', token, 'hex'))),
    );
    expect(idleRow).toBeUndefined();
    expect(keptRow).toBeDefined();
  });
});
