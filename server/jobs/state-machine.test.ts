import { describe, expect, it } from 'vitest';
import { FINAL_STATES, JOB_STATES } from '../../contract';
import { canMove } from './state-machine';

describe('the transition table', () => {
  it('lets nothing leave a final state', () => {
    for (const from of FINAL_STATES)
      for (const to of JOB_STATES) expect(canMove(from, to)).toBe(false);
  });

  it('cancels waiting jobs at once and running ones through cancelling', () => {
    for (const from of ['submitted', 'pending', 'runnable'] as const)
      expect(canMove(from, 'cancelled')).toBe(true);
    for (const from of ['starting', 'running'] as const) {
      expect(canMove(from, 'cancelled')).toBe(false);
      expect(canMove(from, 'cancelling')).toBe(true);
    }
    expect(canMove('cancelling', 'cancelled')).toBe(true);
    expect(canMove('cancelling', 'completed')).toBe(false);
  });

  it('never skips the container: only running jobs complete, fail or time out', () => {
    for (const to of ['completed', 'failed', 'timeout'] as const) {
      expect(JOB_STATES.filter((from) => canMove(from, to))).toEqual(['running']);
    }
  });
});
