import { describe, expect, it } from 'vitest';
import { FINAL_STATES, JOB_STATES } from '../../contract';
import { MAX_POLL_BACKOFF_MS, nextPollDelay } from './polling';

const base = { consecutiveErrors: 0, permanentError: false, baseMs: 1500 };

describe('nextPollDelay', () => {
  it('polls at the base interval while the job is active or not yet loaded', () => {
    expect(nextPollDelay({ ...base, state: undefined })).toBe(1500);
    for (const state of JOB_STATES.filter((s) => !FINAL_STATES.includes(s))) {
      expect(nextPollDelay({ ...base, state })).toBe(1500);
    }
  });

  it('stops at every final state', () => {
    for (const state of FINAL_STATES) {
      expect(nextPollDelay({ ...base, state })).toBe(false);
    }
  });

  it('backs off exponentially on errors, up to a ceiling, and stops on permanent ones', () => {
    expect(nextPollDelay({ ...base, state: 'running', consecutiveErrors: 1 })).toBe(3000);
    expect(nextPollDelay({ ...base, state: 'running', consecutiveErrors: 3 })).toBe(12000);
    expect(nextPollDelay({ ...base, state: 'running', consecutiveErrors: 10 })).toBe(
      MAX_POLL_BACKOFF_MS,
    );
    expect(nextPollDelay({ ...base, state: 'running', permanentError: true })).toBe(false);
  });
});
