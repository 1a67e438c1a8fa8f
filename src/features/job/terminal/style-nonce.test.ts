import { describe, expect, it } from 'vitest';
import { withStyleNonce } from './style-nonce';

describe('withStyleNonce', () => {
  it('gives the nonce to the style elements made meanwhile, and to nothing after', () => {
    const [style, div] = withStyleNonce('n0nce', () => [
      document.createElement('style'),
      document.createElement('div'),
    ]);
    expect(style!.nonce).toBe('n0nce');
    expect(div!.nonce).toBe('');
    expect(document.createElement('style').nonce).toBe('');
  });

  it('puts document.createElement back when the work throws', () => {
    const original = document.createElement;
    expect(() =>
      withStyleNonce('n0nce', () => {
        throw new Error('no room');
      }),
    ).toThrow('no room');
    expect(document.createElement).toBe(original);
  });
});
