import { describe, expect, it } from 'vitest';
import { parseIdInput, shortId } from './short-id';

const id = '019af3c2-7b1e-7d4a-9c8e-4b2f1a3c5d6e';

describe('shortId', () => {
  it('shows a UUID by its random end, not its time-ordered start', () => {
    expect(shortId(id)).toBe('…1a3c5d6e');
  });
  it('leaves text that is not a UUID whole', () => {
    expect(shortId('key_4f2a')).toBe('key_4f2a');
    expect(shortId('alice@example.com')).toBe('alice@example.com');
  });
});

describe('parseIdInput', () => {
  it('reads a whole id in either case', () => {
    expect(parseIdInput(` ${id.toUpperCase()} `)).toEqual({ kind: 'whole', id });
  });
  it('reads the short form as shown, pasted with its ellipsis, or typed', () => {
    expect(parseIdInput(shortId(id))).toEqual({ kind: 'end', end: '1a3c5d6e' });
    expect(parseIdInput('...1A3C5D6E')).toEqual({ kind: 'end', end: '1a3c5d6e' });
    expect(parseIdInput('3c5d6e')).toEqual({ kind: 'end', end: '3c5d6e' });
  });
  it('refuses fewer than 6 digits, more than the last group, and non-hex text', () => {
    expect(parseIdInput('c5d6e')).toBeNull();
    expect(parseIdInput('9c8e4b2f1a3c5d6e')).toBeNull();
    expect(parseIdInput('nightly')).toBeNull();
    expect(parseIdInput('')).toBeNull();
  });
});
