import { EventSource } from 'eventsource';
import type { components } from './api-types';
import { baseUrlOf, type JobdeckClientOptions } from './connection';

/** A job right after one of its state changes, as the list answers it. */
export type JobEvent = components['schemas']['JobEvent'];

export interface FollowEventsOptions extends JobdeckClientOptions {
  /** Start right after this event's id (`Last-Event-ID`); from now when left out. */
  since?: string;
  /** Ends the stream (and the iteration). */
  signal?: AbortSignal;
  /** Called when the service said the resume was too far back: re-read what you show. */
  onReset?: (message: string) => void;
}

/**
 * The project's job changes, in order, from `GET /v1/client/events`. The `eventsource` package
 * reconnects after a drop or a restart of the service and resumes from the last id it saw, so
 * nothing is skipped or repeated (docs/api.md, Events); a refused key or a bad request ends the
 * iteration with the service's message.
 */
export async function* followEvents(options: FollowEventsOptions): AsyncGenerator<JobEvent> {
  const url = new URL(`${baseUrlOf(options.url)}/v1/client/events`);
  if (options.since) url.searchParams.set('since', options.since);
  const headers = { ...options.headers, authorization: `Bearer ${options.apiKey}` };
  const source = new EventSource(url, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, ...headers } }),
  });
  const queue: JobEvent[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  source.addEventListener('job', (event) => {
    queue.push(JSON.parse(event.data) as JobEvent);
    notify();
  });
  source.addEventListener('reset', (event) => {
    options.onReset?.((JSON.parse(event.data) as { message: string }).message);
  });
  source.addEventListener('error', (event) => {
    // A closed source is one that will not reconnect: the service refused the stream.
    if (source.readyState === EventSource.CLOSED) {
      failure = new Error(
        event.message ?? `events: the service refused the stream (${event.code})`,
      );
      notify();
    }
  });
  const stop = () => {
    source.close();
    notify();
  };
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    while (!options.signal?.aborted) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    source.close();
  }
}
