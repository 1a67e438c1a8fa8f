import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState } from '../../contract';
import { jobKeys } from './keys';
import { jobDetailQuery } from './queries';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const record = (state: JobState, updatedAt: string): JobRecord => ({
  id: ID,
  name: 'sleepy',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-22T09:00:00.000Z',
  updated_at: updatedAt,
});

afterEach(() => vi.unstubAllGlobals());

describe('jobDetailQuery', () => {
  it('keeps a newer record the event stream showed while a read was under way', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        await answered; // a poll sent while the job was cancelling, answered late
        const data = record('cancelling', '2026-11-22T09:00:02.000Z');
        return new Response(JSON.stringify({ ok: true, data }), { status: 200 });
      }),
    );
    const client = new QueryClient();
    const reading = client.fetchQuery(jobDetailQuery(ID, 1500));
    const cancelled = record('cancelled', '2026-11-22T09:00:03.000Z');
    client.setQueryData(jobKeys.detail(ID), cancelled);
    answer();
    expect(await reading).toEqual(cancelled);
    expect(client.getQueryData(jobKeys.detail(ID))).toEqual(cancelled);
  });

  it('takes a read that is as new as or newer than what is shown', async () => {
    const running = record('running', '2026-11-22T09:00:05.000Z');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ok: true, data: running }), { status: 200 })),
    );
    const client = new QueryClient();
    client.setQueryData(jobKeys.detail(ID), record('runnable', '2026-11-22T09:00:01.000Z'));
    expect(await client.fetchQuery({ ...jobDetailQuery(ID, 1500), staleTime: 0 })).toEqual(running);
  });
});
