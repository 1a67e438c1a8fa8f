import { describe, expect, it } from 'vitest';
import { createEventStreamParser } from './sse';

describe('createEventStreamParser', () => {
  it('completes events across chunk boundaries, keeps ids and skips heartbeats', () => {
    const parser = createEventStreamParser();
    const parse = parser.push;
    expect(parse(': heartbeat\n\nid: 7\nevent: job\nda')).toEqual([]);
    expect(parse('ta: {"a":1}\n\n')).toEqual([{ id: '7', event: 'job', data: '{"a":1}' }]);
    expect(parse('data: x\r')).toEqual([]);
    expect(parse('\ndata: y\r\n\r\n')).toEqual([{ id: '7', event: 'message', data: 'x\ny' }]);
    // The stream's opening position: an id alone, no event, still where to resume from.
    expect(parse('retry: 2000\nid: 12\n\n')).toEqual([]);
    expect(parser.lastEventId()).toBe('12');
  });

  it('ignores an event with no data, and an id holding NUL', () => {
    const parser = createEventStreamParser();
    const parse = parser.push;
    expect(parse('event: job\n\nid: a\u0000b\ndata:z\n\n')).toEqual([
      { id: null, event: 'message', data: 'z' },
    ]);
  });
});
