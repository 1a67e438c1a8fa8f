import { EventSource } from 'eventsource';
import { expect } from 'vitest';
import { jobEventSchema, type JobEvent } from '../../contract';
import type { TestService } from './service';

export interface ReceivedEvent {
  id: string;
  job: JobEvent;
}

/**
 * The event stream as a browser follows it: a real EventSource (WHATWG semantics), which
 * reconnects by itself after the stream ends and sends Last-Event-ID when it does. Every event's
 * data is checked against the contract's schema.
 */
export class FollowedEvents {
  readonly events: ReceivedEvent[] = [];
  /** How many times a connection opened (1 + reconnections). */
  opened = 0;
  private readonly source: EventSource;

  constructor(service: TestService, options: { key?: string; query?: string } = {}) {
    const key = options.key ?? service.key;
    this.source = new EventSource(`${service.baseUrl}/v1/client/events${options.query ?? ''}`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }),
    });
    this.source.addEventListener('open', () => (this.opened += 1));
    this.source.addEventListener('job', (event) => {
      this.events.push({
        id: event.lastEventId,
        job: jobEventSchema.parse(JSON.parse(event.data)),
      });
    });
  }

  /** Resolves once the stream is open (the first time). */
  async open(timeoutMs = 15_000): Promise<void> {
    await this.until(() => this.opened > 0, timeoutMs, 'the event stream never opened');
  }

  /** The states each job went through, as the events told them, in order. */
  statesOf(jobId: string): string[] {
    return this.events.filter((e) => e.job.id === jobId).map((e) => e.job.state);
  }

  /**
   * Waits until every job reached the last of `states`, then checks that each went through
   * exactly `states`, and that no event came twice.
   */
  async expectLifecycles(jobs: readonly string[], states: readonly string[]): Promise<void> {
    const last = states.at(-1)!;
    await this.until(() => jobs.every((id) => this.statesOf(id).includes(last)));
    for (const id of jobs) expect(this.statesOf(id), id).toEqual(states);
    const ids = this.events.map((e) => e.id);
    // Ids are opaque: each change once; the order is each job's lifecycle above.
    expect(new Set(ids).size).toBe(ids.length);
  }

  async until(
    done: () => boolean,
    timeoutMs = 60_000,
    what = 'the events expected',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) {
        throw new Error(
          `${what} did not arrive; got ${JSON.stringify(this.events.map((e) => [e.id, e.job.id, e.job.state]))}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.source.close();
  }
}

/**
 * A raw read of the event stream: the response, and its text as it arrives, for what an
 * EventSource hides (comments, the lone id line, the status and envelope of a refusal).
 */
export async function openEventStream(
  service: TestService,
  headers: Record<string, string> = {},
  query = '',
): Promise<{ response: Response; text: () => string; ended: Promise<void>; close: () => void }> {
  const abort = new AbortController();
  const response = await fetch(`${service.baseUrl}/v1/client/events${query}`, {
    headers: { authorization: `Bearer ${service.key}`, ...headers },
    signal: abort.signal,
  });
  let received = '';
  const ended = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        received += decoder.decode(read.value, { stream: true });
      }
    } catch {
      // aborted by close()
    }
  })();
  return { response, text: () => received, ended, close: () => abort.abort() };
}

/** Waits until `read()` holds `wanted`; fails with what it holds. */
export async function untilText(
  read: () => string,
  wanted: RegExp,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!wanted.test(read())) {
    if (Date.now() > deadline) throw new Error(`never saw ${wanted} in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}
