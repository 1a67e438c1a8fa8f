import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import {
  JOB_EVENT,
  RESET_EVENT,
  eventOperations,
  jobEventSchema,
  type JobListItem,
} from '../../contract';
import { streamHeaders } from './client';
import { createLiveCache } from './live-cache';
import { onProjectChosen } from './session-state';
import { createEventStreamParser } from './sse';

/**
 * `off`: the service has no stream (or no page needs it); `connecting`; `live`: changes arrive
 * as they happen; `down`: the stream failed, pages poll until it is back.
 */
export type StreamStatus = 'off' | 'connecting' | 'live' | 'down';

const EVENTS_PATH = eventOperations.streamEvents.path;
/** A stream that was live and dropped is tried again soon (a restart of the service)… */
const QUICK_RETRY_MS = 2000;
/** …one that keeps failing, rarely: pages poll meanwhile, and retries count against that budget. */
const SLOW_RETRY_MS = 30_000;
/** No byte (not even a heartbeat) for this long: the connection is dead without having said so. */
const SILENCE_LIMIT_MS = 60_000;
/** Pages that come and go (overview → jobs) keep one stream instead of reconnecting. */
const LINGER_MS = 5000;

/** A malformed event is skipped, not a reason to drop (and replay) the stream. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface Connection {
  stop(): void;
}

/** Reads the stream until it ends or fails, resuming after the last event id it saw. */
function connect(
  onEvent: (job: JobListItem) => void,
  onStatus: (status: StreamStatus) => void,
  onReset: () => void,
): Connection {
  let lastEventId: string | null = null;
  let stopped = false;
  let abort: AbortController | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const readOnce = async (): Promise<boolean> => {
    abort = new AbortController();
    const headers = streamHeaders(EVENTS_PATH);
    if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const resetSilence = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort?.abort(), SILENCE_LIMIT_MS);
    };
    let wasLive = false;
    try {
      const response = await fetch(EVENTS_PATH, { headers, signal: abort.signal });
      if (!response.ok || !response.body) return false;
      wasLive = true;
      onStatus('live');
      resetSilence();
      const parser = createEventStreamParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        resetSilence();
        for (const event of parser.push(value)) {
          // Too far behind to replay: everything shown is re-read, the stream goes on from now.
          if (event.event === RESET_EVENT) onReset();
          if (event.event !== JOB_EVENT) continue;
          const job = jobEventSchema.safeParse(parseJson(event.data));
          if (job.success) onEvent(job.data);
        }
        lastEventId = parser.lastEventId() ?? lastEventId;
      }
    } catch {
      // Network loss or an abort: both end this connection the same way.
    } finally {
      clearTimeout(silence);
    }
    return wasLive;
  };

  const loop = async () => {
    onStatus('connecting');
    const wasLive = await readOnce();
    if (stopped) return;
    onStatus('down');
    retry = setTimeout(() => void loop(), wasLive ? QUICK_RETRY_MS : SLOW_RETRY_MS);
  };
  void loop();

  return {
    stop() {
      stopped = true;
      clearTimeout(retry);
      abort?.abort();
    },
  };
}

/** One stream per browser tab, shared by every page that wants live updates. */
function createLiveUpdates(queryClient: QueryClient) {
  let status: StreamStatus = 'off';
  const listeners = new Set<() => void>();
  let users = 0;
  let connection: Connection | undefined;
  let linger: ReturnType<typeof setTimeout> | undefined;
  const cache = createLiveCache(queryClient);

  const setStatus = (next: StreamStatus) => {
    // Whatever changed before the stream was live (since a list was read, or during a gap).
    if (next === 'live') cache.refreshAll();
    status = next;
    listeners.forEach((listener) => listener());
  };

  // Another project's changes must not reach the cache: a switch of project starts over.
  onProjectChosen(() => {
    if (!connection) return;
    connection.stop();
    connection = users > 0 ? connect(cache.apply, setStatus, cache.refreshAll) : undefined;
  });

  return {
    getStatus: () => status,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    acquire() {
      users += 1;
      clearTimeout(linger);
      connection ??= connect(cache.apply, setStatus, cache.refreshAll);
      return () => {
        users -= 1;
        if (users > 0) return;
        linger = setTimeout(() => {
          connection?.stop();
          connection = undefined;
          setStatus('off');
        }, LINGER_MS);
      };
    },
  };
}

const byClient = new WeakMap<QueryClient, ReturnType<typeof createLiveUpdates>>();

/**
 * Keeps the project's event stream open while the calling page is shown, applying each change to
 * the cached lists and jobs; returns the stream's status so the page can poll when it is not live.
 */
export function useLiveUpdates(enabled: boolean): StreamStatus {
  const queryClient = useQueryClient();
  let live = byClient.get(queryClient);
  if (!live) {
    live = createLiveUpdates(queryClient);
    byClient.set(queryClient, live);
  }
  const shared = live;
  useEffect(() => (enabled ? shared.acquire() : undefined), [enabled, shared]);
  const status = useSyncExternalStore(shared.subscribe, shared.getStatus);
  return enabled ? status : 'off';
}

/** How often a list polls: only while the stream is not live; with its retries ≤ 1 request / 5 s. */
export const POLL_WITHOUT_STREAM_MS = 6000;
export const listRefetchInterval = (status: StreamStatus) =>
  status === 'live' ? false : POLL_WITHOUT_STREAM_MS;
