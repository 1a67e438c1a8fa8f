import { describe, expect, it } from 'vitest';
import { engineHealthWords } from './engine-health-text';

const since = new Date(2026, 11, 7, 2, 14, 31).toISOString();

describe('engineHealthWords', () => {
  it('says since when the engine is away and what waits while dispatch is paused', () => {
    expect(
      engineHealthWords(
        { reachable: false, unreachable_since: since, dispatch: 'paused' },
        'docker',
      ),
    ).toEqual({
      badge: 'engine unreachable since 02:14:31 · dispatch paused',
      sentence:
        'The container engine (docker) has not answered since 02:14:31. Dispatch is paused: no job starts; runnable jobs wait, and running jobs are settled once it answers again.',
    });
  });

  it('tells a hanging engine (dispatch still trying) from a down one', () => {
    const words = engineHealthWords(
      { reachable: false, unreachable_since: since, dispatch: 'running' },
      'swarm',
    );
    expect(words.badge).toBe('engine unreachable since 02:14:31');
    expect(words.sentence).toContain('though it answers a ping');
  });

  it('says an answering engine answers', () => {
    expect(
      engineHealthWords({ reachable: true, unreachable_since: null, dispatch: 'running' }, 'docker')
        .sentence,
    ).toBe('The container engine (docker) answers; dispatch is running.');
  });
});
