import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../contract';
import { shortAgo } from './time';
import { aboutSpan, rowNote, waitingSentence } from './waiting-text';

const job = (state: JobRecord['state'], system_note: string | null): JobRecord => ({
  id: '019a0000-0000-7000-8000-000000000001',
  name: 'nightly',
  state,
  system_note,
  created_at: '2026-12-07T04:00:00.000Z',
  updated_at: '2026-12-07T04:00:00.000Z',
  schedule_at: null,
});
const estimate = { in_ms: 4 * 60_000 + 10_000, place: 2, slots: 1, run_p50_ms: 125_000, runs: 7 };
const slotNote =
  'waiting for a slot: 2nd of 2 waiting in queue t::single; 1 of 1 running in queue t::single';

describe('waiting sentence', () => {
  it("says the service's note and the estimate, labelled as one, in one sentence", () => {
    expect(waitingSentence(job('runnable', slotNote), estimate)).toBe(
      `${slotNote}; estimated start in about 4 min, from the queue's run times of the last hour or two (7 jobs)`,
    );
  });

  it('says the note alone without an estimate (a paused queue, a spec-only service)', () => {
    expect(waitingSentence(job('runnable', 'waiting: queue t::single is paused'), null)).toBe(
      'waiting: queue t::single is paused',
    );
    expect(waitingSentence(job('pending', 'scheduled for 2026-12-08T00:00:00.000Z'))).toBe(
      'scheduled for 2026-12-08T00:00:00.000Z',
    );
  });

  it('words every waiting state the service left without a note', () => {
    expect(waitingSentence(job('submitted', null))).toBe('waiting for the service to take it in');
    expect(waitingSentence(job('pending', null))).toBe(
      'waiting for its schedule or for the jobs it depends on',
    );
    expect(waitingSentence(job('runnable', null))).toBe('waiting for a slot in its queue');
  });

  it('is null for a job that is not waiting', () => {
    expect(waitingSentence(job('running', null), estimate)).toBeNull();
    expect(waitingSentence(job('failed', 'exited with code 3'))).toBeNull();
  });
});

describe('row note', () => {
  it("is the failure's note, the waiting reason, or nothing", () => {
    expect(rowNote(job('failed', 'exited with code 3'))).toBe('exited with code 3');
    expect(rowNote(job('submitted', null))).toBe('waiting for the service to take it in');
    expect(rowNote(job('completed', null))).toBeNull();
  });
});

describe('aboutSpan', () => {
  it('rounds as an estimate is rough', () => {
    expect(aboutSpan(20_000)).toBe('less than a minute');
    expect(aboutSpan(4.4 * 60_000)).toBe('about 4 min');
    expect(aboutSpan(150 * 60_000)).toBe('about 2.5 h');
  });
});

describe('shortAgo', () => {
  it('says a past time in the largest whole unit, for a narrow column', () => {
    expect(shortAgo(12_400)).toBe('12 s ago');
    expect(shortAgo(4 * 60_000 + 59_000)).toBe('4 min ago');
    expect(shortAgo(47 * 3_600_000)).toBe('47 h ago');
    expect(shortAgo(3 * 86_400_000)).toBe('3 d ago');
    expect(shortAgo(-500)).toBe('0 s ago');
  });
});
