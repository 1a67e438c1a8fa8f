/** One server-sent event as the stream delivered it. */
export interface ServerSentEvent {
  id: string | null;
  event: string;
  data: string;
}

export interface EventStreamParser {
  /** Feeds a chunk; returns the events it completes. */
  push(chunk: string): ServerSentEvent[];
  /** The id to resume after: set by any `id:` line, also one that ends a block without data. */
  lastEventId(): string | null;
}

/**
 * An incremental reader of the text/event-stream format (the HTML standard's parsing rules):
 * feed it chunks as they arrive, it returns the events they complete. Comment lines (the
 * heartbeats) produce nothing; `retry` is ignored, the console keeps its own schedule.
 */
export function createEventStreamParser(): EventStreamParser {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | null = null;

  const line = (text: string, out: ServerSentEvent[]) => {
    if (text === '') {
      if (data.length > 0) out.push({ id, event: event || 'message', data: data.join('\n') });
      data = [];
      event = '';
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\u0000')) id = value;
  };

  const push = (chunk: string): ServerSentEvent[] => {
    buffer += chunk;
    const out: ServerSentEvent[] = [];
    // A line ends at CRLF, LF or CR; a CR at the end of a chunk may be half of a CRLF.
    let match: RegExpExecArray | null;
    const ending = /\r\n|\n|\r(?!$)/g;
    let start = 0;
    while ((match = ending.exec(buffer)) !== null) {
      line(buffer.slice(start, match.index), out);
      start = match.index + match[0].length;
    }
    buffer = buffer.slice(start);
    return out;
  };
  return { push, lastEventId: () => id };
}
