import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SendRounds } from './send-rounds';
import { sseBytes } from './sse-writer';

describe('SendRounds', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a lone ask at once, and asks within an interval together in the next round, once each', () => {
    const rounds = new SendRounds(25);
    const sent: string[] = [];
    const a = () => sent.push('a');
    const b = () => sent.push('b');
    rounds.ask(a);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(5);
    rounds.ask(a);
    rounds.ask(b);
    rounds.ask(a);
    vi.advanceTimersByTime(19);
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['a', 'a', 'b']);
  });

  it('runs nothing once stopped', () => {
    const rounds = new SendRounds(25);
    const send = vi.fn();
    rounds.ask(send);
    rounds.stop();
    vi.advanceTimersByTime(100);
    expect(send).not.toHaveBeenCalled();
  });
});

describe('sseBytes', () => {
  it('frames the UTF-8 text as one HTTP/1.1 chunk, and keeps it bare beside', () => {
    const bytes = sseBytes('data: é\n\n');
    expect(bytes.plain.toString('utf8')).toBe('data: é\n\n');
    expect(bytes.chunked.toString('utf8')).toBe('a\r\ndata: é\n\n\r\n');
  });
});
