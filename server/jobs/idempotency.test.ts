import { describe, expect, it } from 'vitest';
import { canonicalJson, replayOf, requestDigest } from './idempotency';
import type { SecretBox } from './ports';

/** A box whose digest is the text itself: what goes into the digest is what is compared. */
const box: SecretBox = {
  seal: (text) => text,
  open: (text) => text,
  digest: (data) => `k:${data}`,
  digestMatches: (data, digest) => digest === `k:${data}`,
};
const payload = { job_definition: 'p::d:1', job_queue: 'p::q', name: 'n' };

describe('canonicalJson', () => {
  it('orders every object’s keys, keeps arrays in order and leaves out undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined, b: 'x' } })).toBe(
      '{"a":{"b":"x","d":[2,1]},"b":1}',
    );
  });
});

describe('replayOf', () => {
  it('answers with the held job for the same actor and body, in any key order', () => {
    const held = { jobId: 'j1', digest: requestDigest(box, 'key:a', payload) };
    const reordered = { name: 'n', job_queue: 'p::q', job_definition: 'p::d:1' };
    expect(replayOf(box, held, 'key:a', reordered)).toBe('j1');
  });

  it('is a conflict naming the header for another body or another actor', () => {
    const held = { jobId: 'j1', digest: requestDigest(box, 'key:a', payload) };
    const conflict = { kind: 'conflict', message: expect.stringMatching(/^Idempotency-Key: /) };
    expect(() => replayOf(box, held, 'key:a', { ...payload, name: 'm' })).toThrow(
      expect.objectContaining(conflict),
    );
    expect(() => replayOf(box, held, 'key:b', payload)).toThrow(expect.objectContaining(conflict));
  });
});
