import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import {
  LateOutOfMemory,
  mayBeLateOutOfMemory,
  OOM_NOTICE_WITHIN_MS,
  outOfMemoryEventFor,
} from './late-oom';

const ended = (state: Partial<Docker.ContainerInspectInfo['State']>, memory = 16 * 1024 ** 2) =>
  ({
    Id: 'c1',
    State: {
      Status: 'exited',
      Running: false,
      ExitCode: 137,
      OOMKilled: false,
      StartedAt: new Date(Date.now() - 5000).toISOString(),
      FinishedAt: new Date(Date.now() - 2000).toISOString(),
      ...state,
    },
    HostConfig: { Memory: memory },
  }) as unknown as Docker.ContainerInspectInfo;

/**
 * An engine whose event log holds these lines from its `from`th answer on (the notice reaches it
 * late), and which records what it was asked.
 */
function engineWithEvents(lines: string[], from = 0) {
  const asked: Docker.GetEventsOptions[] = [];
  const docker = {
    getEvents: (options: Docker.GetEventsOptions) => {
      const logged = asked.length >= from ? lines : [];
      asked.push(options);
      return Promise.resolve(Readable.from(logged.map((l) => `${l}\n`)));
    },
  } as unknown as Docker;
  return { docker, asked };
}

const OOM_EVENT = '{"status":"oom","id":"c1","Action":"oom"}';

describe('an out-of-memory notice that reached Docker after the exit', () => {
  it('is looked for only for a SIGKILL under a memory limit that Docker did not flag', () => {
    expect(mayBeLateOutOfMemory(ended({}))).toBe(true);
    expect(mayBeLateOutOfMemory(ended({ OOMKilled: true }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({ ExitCode: 143 }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({ Running: true, Status: 'running' }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({}, 0))).toBe(false);
  });

  it("is found in the engine's oom events of that container since it started", async () => {
    const { docker, asked } = engineWithEvents([OOM_EVENT]);
    expect(await outOfMemoryEventFor(docker, ended({}))).toBe(true);
    expect(asked[0]!.filters).toEqual({ container: ['c1'], event: ['oom'] });
    expect(asked[0]!.until! - asked[0]!.since!).toBeGreaterThanOrEqual(5);
  });

  it('is none when the engine logged no oom event: a SIGKILL for another reason', async () => {
    const { docker, asked } = engineWithEvents([]);
    expect(await outOfMemoryEventFor(docker, ended({}), 2000)).toBe(false); // ended 2 s ago
    expect(asked).toHaveLength(1);
  });

  it('is first asked a second after the exit, and again each second until it is logged', async () => {
    const { docker, asked } = engineWithEvents([OOM_EVENT], 2);
    const before = Date.now();
    expect(await outOfMemoryEventFor(docker, ended({ FinishedAt: new Date().toISOString() }))).toBe(
      true,
    );
    expect(asked).toHaveLength(3);
    expect(Date.now() - before).toBeGreaterThanOrEqual(3000 - 50);
  });

  it('is none once the bound after the exit has passed with no notice logged', async () => {
    const { docker, asked } = engineWithEvents([]);
    const before = Date.now();
    const justEnded = ended({ FinishedAt: new Date().toISOString() });
    expect(await outOfMemoryEventFor(docker, justEnded, 2000)).toBe(false);
    expect(Date.now() - before).toBeGreaterThanOrEqual(2000 - 50);
    expect(asked).toHaveLength(2);
    expect(OOM_NOTICE_WITHIN_MS).toBeGreaterThanOrEqual(5000);
  });

  it("is not awaited for a container this runtime stopped: its SIGKILL was the stop's", async () => {
    const { docker, asked } = engineWithEvents([OOM_EVENT]);
    const late = new LateOutOfMemory(docker);
    late.stopping('c1');
    expect(await late.killed(ended({}))).toBe(false);
    expect(asked).toHaveLength(0);
    late.unstopped('c1'); // the stop found it ended already
    expect(await late.killed(ended({}))).toBe(true);
  });
});
