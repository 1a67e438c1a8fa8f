import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIST_CURSOR_TOKEN, POSITION_TOKEN } from '../../contract';
import { PositionCodec } from './positions';

describe('PositionCodec', () => {
  const codec = new PositionCodec(randomBytes(32));

  it('round-trips every position for its project, as a token of the contract shape', () => {
    for (const position of [0, 1, 2, 1_000, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER]) {
      const token = codec.encode('demo', position);
      expect(token).toMatch(POSITION_TOKEN);
      expect(codec.decode('demo', token)).toBe(position);
    }
  });

  it('gives neighbours unrelated tokens: no counter to read the others’ activity from', () => {
    const [a, b] = [codec.encode('demo', 41), codec.encode('demo', 42)];
    const sharedPrefix = [...a].findIndex((char, i) => char !== b[i]);
    expect(sharedPrefix).toBeLessThan(4);
  });

  it('refuses another project’s token, another store’s, a tampered or malformed one', () => {
    const token = codec.encode('demo', 42);
    expect(codec.decode('other', token)).toBeNull();
    expect(new PositionCodec(randomBytes(32)).decode('demo', token)).toBeNull();
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(codec.decode('demo', tampered)).toBeNull();
    for (const malformed of ['42', '', `${token}=`, token.slice(1)]) {
      expect(codec.decode('demo', malformed)).toBeNull();
    }
  });

  it('round-trips a sorted cursor (a key, none, or negative) and binds it to its project and sort', () => {
    for (const key of [null, 0, -5, Date.parse('2026-12-07T06:00:00Z'), Number.MAX_SAFE_INTEGER]) {
      const token = codec.encodeSorted('demo', '-ended_at', key, 42);
      expect(token).toMatch(LIST_CURSOR_TOKEN);
      expect(codec.decodeSorted('demo', '-ended_at', token)).toEqual({ key, position: 42 });
      expect(codec.decodeSorted('demo', 'ended_at', token)).toBeNull();
      expect(codec.decodeSorted('other', '-ended_at', token)).toBeNull();
      expect(codec.decode('demo', token)).toBeNull();
    }
    const plain = codec.encode('demo', 42);
    expect(codec.decodeSorted('demo', 'state', plain)).toBeNull();
    const token = codec.encodeSorted('demo', 'state', 3, 42);
    const tampered = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(codec.decodeSorted('demo', 'state', tampered)).toBeNull();
  });
});
