import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { mayBeLateOutOfMemory, OOM_NOTICE_WITHIN_MS, outOfMemoryEventFor } from './late-oom';

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

/** An engine whose event log holds these lines, and which records what it was asked. */
function engineWithEvents(lines: string[]) {
  const asked: Docker.GetEventsOptions[] = [];
  const docker = {
    getEvents: (options: Docker.GetEventsOptions) => {
      asked.push(options);
      return Promise.resolve(Readable.from(lines.map((l) => `${l}\n`)));
    },
  } as unknown as Docker;
  return { docker, asked };
}

describe('an out-of-memory notice that reached Docker after the exit', () => {
  it('is looked for only for a SIGKILL under a memory limit that Docker did not flag', () => {
    expect(mayBeLateOutOfMemory(ended({}))).toBe(true);
    expect(mayBeLateOutOfMemory(ended({ OOMKilled: true }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({ ExitCode: 143 }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({ Running: true, Status: 'running' }))).toBe(false);
    expect(mayBeLateOutOfMemory(ended({}, 0))).toBe(false);
  });

  it("is found in the engine's oom events of that container since it started", async () => {
    const { docker, asked } = engineWithEvents(['{"status":"oom","id":"c1","Action":"oom"}']);
    expect(await outOfMemoryEventFor(docker, ended({}))).toBe(true);
    expect(asked[0]!.filters).toEqual({ container: ['c1'], event: ['oom'] });
    expect(asked[0]!.until! - asked[0]!.since!).toBeGreaterThanOrEqual(5);
  });

  it('is none when the engine logged no oom event: a SIGKILL for another reason', async () => {
    const { docker } = engineWithEvents([]);
    expect(await outOfMemoryEventFor(docker, ended({}))).toBe(false);
  });

  it('is asked only once the notice can no longer be on its way', async () => {
    const { docker } = engineWithEvents([]);
    const justEnded = ended({ FinishedAt: new Date().toISOString() });
    const before = Date.now();
    await outOfMemoryEventFor(docker, justEnded);
    expect(Date.now() - before).toBeGreaterThanOrEqual(OOM_NOTICE_WITHIN_MS - 50);
  });
});
