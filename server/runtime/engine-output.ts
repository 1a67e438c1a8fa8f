import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { epochPartsOf, toLogInstant, type LogInstant } from '../jobs/log-instant';
import type { OutputStream } from '../jobs/model';
import type { OutputWindow, WorkloadLine, WorkloadOutput } from '../jobs/ports';
import { LineTail } from './line-tail';

/** The query of the Engine API's logs endpoints, a container's or a service's alike. */
export interface EngineLogsQuery {
  stdout: true;
  stderr: true;
  timestamps: true;
  /** The last this many lines of both streams together; omitted: all of them. */
  tail?: number;
  /** `seconds.nanoseconds`: lines read at or after it. */
  since?: string;
}

/** Opens the logs endpoint with this query; the stream ends after the last line (no follow). */
export type OpenEngineLogs = (query: EngineLogsQuery) => Promise<Readable>;

/**
 * A logs endpoint (`/containers/{id}/logs` or `/services/{id}/logs`) as a stream that ends after
 * the last line: dockerode's own call buffers the whole answer unless it follows, and following a
 * running workload never ends. Give it a client with a timeout, so that an engine that stops
 * answering mid-read fails the read instead of holding it.
 */
export function engineLogs(client: Docker, path: string): OpenEngineLogs {
  return (query) =>
    new Promise((resolve, reject) => {
      client.modem.dial(
        {
          path: `${path}?`,
          method: 'GET',
          isStream: true,
          statusCodes: {
            200: true,
            404: 'no such container or service',
            500: 'server error',
            503: 'node is not part of a swarm',
          },
          options: { ...query },
        },
        (error, stream) => (error ? reject(error) : resolve(stream as Readable)),
      );
    });
}

// A follower's read needs only the few lines printed since its last one: ask for this many
// first, and more only when they do not reach back far enough.
const FIRST_TAIL_LINES = 256;
const TAIL_GROWTH = 8;

const HEADER_BYTES = 8;
const STREAMS: Record<number, OutputStream> = { 1: 'stdout', 2: 'stderr' };

/**
 * A workload's output through the Engine API (`logs?timestamps=1&since=…&tail=…`): the newest
 * lines after `after` holding at most `maxBytes`, read in bounded memory. The engine's tail
 * counts lines, not bytes; a line has at least one byte, so maxBytes lines always suffice.
 * `whole` reads all the engine holds instead, and counts it.
 */
export async function readEngineOutput(
  open: OpenEngineLogs,
  { after, maxBytes, whole, onProgress }: OutputWindow,
): Promise<WorkloadOutput> {
  const since = after === null ? undefined : sinceAfter(after);
  if (whole) {
    // Every line, through the tail in bounded memory, so that what was printed is counted too.
    const sink = new LineTail(maxBytes);
    const query = { stdout: true, stderr: true, timestamps: true } as const;
    await readLines(await open(since ? { ...query, since } : query), sink, onProgress);
    return { ...sink.tail(false), printed: sink.added };
  }
  for (let tail = Math.min(FIRST_TAIL_LINES, maxBytes); ;) {
    const sink = new LineTail(maxBytes);
    const query = { stdout: true, stderr: true, timestamps: true, tail } as const;
    const opened = await open(since ? { ...query, since } : query);
    const received = await readLines(opened, sink, onProgress);
    // Fewer lines than asked for: the engine's tail reached back to `after`, or to the start.
    if (received < tail || sink.full || tail === maxBytes) return sink.tail(received >= tail);
    tail = Math.min(tail * TAIL_GROWTH, maxBytes);
  }
}

/** The engine's `since` is inclusive: one nanosecond later is "after". */
function sinceAfter(after: LogInstant): string | undefined {
  const { seconds, nanos } = epochPartsOf(after);
  if (seconds < 0) return undefined; // before any output
  return nanos === 999_999_999
    ? `${seconds + 1}.000000000`
    : `${seconds}.${String(nanos + 1).padStart(9, '0')}`;
}

/**
 * Reads a multiplexed log stream (Jobdeck never gives a job a TTY): each frame is an 8-byte
 * header (stream, 0, 0, 0, payload size u32 BE), then `<RFC 3339 time> <bytes of one line>`.
 * Frames of other streams (3: the engine's own words, as a swarm manager writes when a node is
 * away) are not the job's output and are left out. Returns how many lines it read.
 */
async function readLines(
  stream: Readable,
  sink: LineTail,
  onProgress: (() => void) | undefined,
): Promise<number> {
  // Chunks are joined only once they hold what is needed next (a header, or a whole frame): an
  // engine (or a proxy) sending small chunks would otherwise cost a copy of the frame each.
  let chunks: Buffer[] = [];
  let buffered = 0;
  let needed = HEADER_BYTES;
  let count = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    onProgress?.();
    chunks.push(chunk);
    buffered += chunk.length;
    if (buffered < needed) continue;
    let pending = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, buffered);
    needed = HEADER_BYTES;
    while (pending.length >= HEADER_BYTES) {
      const end = HEADER_BYTES + pending.readUInt32BE(4);
      if (pending.length < end) {
        needed = end;
        break;
      }
      const source = STREAMS[pending[0]!];
      if (source) {
        sink.add(lineOf(source, pending.subarray(HEADER_BYTES, end)));
        count += 1;
      }
      pending = pending.subarray(end);
    }
    chunks = pending.length > 0 ? [pending] : [];
    buffered = pending.length;
  }
  return count;
}

function lineOf(stream: OutputStream, payload: Buffer): WorkloadLine {
  const space = payload.indexOf(0x20);
  const at = toLogInstant(payload.subarray(0, Math.max(space, 0)).toString('latin1'));
  if (space < 0 || at === undefined) throw new Error('the engine sent a log line without a time');
  // A copy: the chunk it came in can be far larger than the line, and the tail keeps lines.
  return { stream, at, bytes: Buffer.from(payload.subarray(space + 1)) };
}
