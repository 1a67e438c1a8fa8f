import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  EVENT_ID_MESSAGE,
  RELEASE_0_1_EVENT_ID,
  lastEventIdSchema,
  MAX_REPLAY_CHANGES,
  RESET_EVENT,
  eventsQuerySchema,
  eventOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import type { ChangeFeed } from '../../jobs/change-feed';
import type { ServiceMetrics } from '../../observability/metrics';
import type { JobReadModel } from '../../jobs/read-model';
import { coalesced } from '../../jobs/serial';
import { principalFor, principalOf, type Credentials } from '../auth';
import { HttpError } from '../errors';
import type { Query } from '../query-rule';
import type { PositionCodec } from '../positions';
import { PAGE, SharedPages } from './event-pages';
import { SendRounds } from './send-rounds';
import { sseBytes, SseWriter } from './sse-writer';

export interface EventRoutesOptions {
  reads: JobReadModel;
  feed: ChangeFeed;
  credentials: Credentials;
  streamsPerKey: number;
  heartbeatMs: number;
  positions: PositionCodec;
  metrics?: ServiceMetrics;
}

/**
 * Where a resume points that this service never gave to this project (another project's id, or
 * one from another store): treated like an id from the future, so the stream starts with a reset.
 */
const NEVER_GIVEN = Number.POSITIVE_INFINITY;

// How often at most the streams send what moved: a change waits at most this long for its round.
const ROUND_MS = 25;
// What a browser's EventSource waits before it reconnects after the stream ends.
const RETRY_MS = 2000;

/**
 * `GET /v1/client/events`: the project's state changes as server-sent events, from the feed's
 * position (or after Last-Event-ID / `since`). Each stream pulls its own project's changes up to
 * the feed's position whenever that moves (in rounds, see SendRounds), a page at a time and only
 * as fast as the client reads, so a slow client holds no more than a page. The service's close
 * ends every stream.
 */
export function eventRoutes(app: FastifyInstance, options: EventRoutesOptions): void {
  const open = new Set<EventStream>();
  const pages = new SharedPages(options.reads, options.positions);
  const rounds = new SendRounds(ROUND_MS);
  const perKey = new Map<string, number>();
  options.metrics?.observeEventStreams(() => {
    let bufferedBytes = 0;
    for (const stream of open) bufferedBytes += stream.buffered;
    return { streams: open.size, bufferedBytes };
  });
  app.addHook('preClose', async () => {
    rounds.stop();
    for (const stream of open) stream.end();
  });

  operationRoute(app, eventOperations.streamEvents, async (request, reply) => {
    const { keyId } = principalOf(request);
    const cursor = resumeCursor(request, options.positions);
    const streams = perKey.get(keyId) ?? 0;
    if (streams >= options.streamsPerKey) {
      throw new HttpError(
        429,
        `events: at most ${options.streamsPerKey} event streams per API key at once; close one first`,
      );
    }
    perKey.set(keyId, streams + 1);
    const stream = new EventStream(request, reply, options, pages, rounds, cursor);
    open.add(stream);
    stream.onEnd(() => {
      open.delete(stream);
      const left = (perKey.get(keyId) ?? 1) - 1;
      if (left > 0) perKey.set(keyId, left);
      else perKey.delete(keyId);
    });
    await stream.start().catch((error: unknown) => {
      request.log.warn({ err: error }, 'event stream could not start');
      stream.end();
    });
  });
}

/** Where a stream resumes: after Last-Event-ID, else after `since`; null: from now. */
function resumeCursor(
  request: FastifyRequest<Query<typeof eventsQuerySchema>>,
  positions: PositionCodec,
): number | null {
  const { since } = request.query;
  const header = request.headers['last-event-id'];
  if (header !== undefined && !lastEventIdSchema.safeParse(header).success) {
    throw new HttpError(400, `Last-Event-ID: ${EVENT_ID_MESSAGE}`);
  }
  const given = header as string | undefined; // checked above: one string, or none
  if (given !== undefined && RELEASE_0_1_EVENT_ID.test(given)) return NEVER_GIVEN;
  const token = given ?? since;
  if (token === undefined) return null;
  return positions.decode(principalOf(request).project, token) ?? NEVER_GIVEN;
}

class EventStream {
  private readonly out: SseWriter;
  private ended = false;
  private readonly pumps = coalesced(
    () => this.sendUpTo(this.options.feed.position),
    () => !this.ended,
  );
  private readonly sendNew = () => void this.pump();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly request: FastifyRequest,
    reply: FastifyReply,
    private readonly options: EventRoutesOptions,
    private readonly pages: SharedPages,
    private readonly rounds: SendRounds,
    private cursor: number | null,
  ) {
    reply.hijack();
    this.out = new SseWriter(reply.raw, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // a reverse proxy passes each event on at once
    });
    reply.raw.on('close', () => this.end());
  }

  /** Bytes written that the client has not taken yet, held here. */
  get buffered(): number {
    return this.out.buffered;
  }

  onEnd(cleanup: () => void): void {
    if (this.ended) cleanup();
    else this.cleanups.push(cleanup);
  }

  async start(): Promise<void> {
    const unsubscribe = await this.options.feed.subscribe(() => this.rounds.ask(this.sendNew));
    this.onEnd(unsubscribe);
    const heartbeat = setInterval(() => void this.heartbeat(), this.options.heartbeatMs);
    heartbeat.unref();
    this.onEnd(() => clearInterval(heartbeat));
    const position = this.options.feed.position;
    const id = this.options.positions.encode(principalOf(this.request).project, position);
    if (this.cursor === null) {
      // From now: an id line alone (no event) gives the client a place to resume from.
      this.cursor = position;
      this.write(`retry: ${RETRY_MS}\nid: ${id}\n\n`);
    } else if (position - this.cursor > MAX_REPLAY_CHANGES || this.cursor > position) {
      // Replaying from far back would cost every stream's reader (and the service) more than a
      // fresh read of the list; an id from the future, or another's, was never this stream's.
      // Either way: from now.
      this.cursor = position;
      const data = JSON.stringify({
        message: `events: too far back to replay (more than ${MAX_REPLAY_CHANGES} changes); re-read the list, then follow from here`,
      });
      this.write(`retry: ${RETRY_MS}\nid: ${id}\nevent: ${RESET_EVENT}\ndata: ${data}\n\n`);
    } else {
      this.write(`retry: ${RETRY_MS}\n\n`);
    }
    if (this.ended) return;
    await this.pump();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.out.end();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
  }

  /** Sends the project's changes up to the feed's position; one pump at a time. */
  private async pump(): Promise<void> {
    try {
      await this.pumps();
    } catch (error) {
      this.request.log.warn({ err: error }, 'event stream failed; closing it');
      this.end();
    }
  }

  private async sendUpTo(position: number): Promise<void> {
    const { project } = principalOf(this.request);
    while (!this.ended && this.cursor !== null && this.cursor < position) {
      const page = await this.pages.page(project, this.cursor, position);
      // Ended meanwhile: its last chunk is sent, and a write now would follow it on the socket.
      if (this.ended) return;
      // Waits until the client has taken it in: a slow client slows only itself, and holds one
      // page here whatever happens meanwhile.
      if (page.bytes && !this.out.write(page.bytes)) await this.out.drained();
      if (page.count < PAGE) {
        this.cursor = position;
        return;
      }
      this.cursor = page.lastSeq!;
      // A page at a time, the event loop served in between: the store's reads are synchronous
      // on SQLite, so a replay would otherwise hold the loop for its whole length.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** A comment keeps proxies from closing an idle stream; a revoked key or ended session ends it. */
  private async heartbeat(): Promise<void> {
    // A refusal ends the stream; the store briefly away keeps it.
    const principal = await principalFor(this.request, this.options.credentials).catch(
      (error: unknown) => (error instanceof HttpError ? undefined : principalOf(this.request)),
    );
    if (!principal) {
      this.end();
      return;
    }
    // A client that is not reading is not idle: what it holds is bounded, and grows by none.
    if (!this.out.blocked) this.write(HEARTBEAT);
  }

  private write(text: string): void {
    if (!this.ended) this.out.write(sseBytes(text));
  }
}

const HEARTBEAT = ': heartbeat\n\n';
