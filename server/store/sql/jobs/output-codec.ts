import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompress, constants } from 'node:zlib';
import type { OutputLine, OutputStream } from '../../../jobs/model';

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

/** A stored line: `[stream, at, text]`, the keys of an object left out of every line. */
export type StoredLine = [OutputStream, string, string];

const storedLinesOf = (lines: readonly OutputLine[]): StoredLine[] =>
  lines.map((line) => [line.stream, line.at, line.text]);

export const outputLinesOf = (stored: readonly StoredLine[]): OutputLine[] =>
  stored.map(([stream, at, text]) => ({ stream, at, text }));

/**
 * Up to this much JSON is compressed on the service's thread (a fraction of a millisecond): a
 * trip through libuv's threads waits behind all the I/O of a busy service, and the job's final
 * move, already stamped with its time, would wait with it.
 */
const PACK_IN_THREAD_BYTES = 16 * 1024;

/**
 * Up to this much JSON (a line or two) is stored as it is: Brotli would save a few dozen bytes at
 * most, and setting up its encoder cost more of the service's CPU than anything else in a short
 * job's end (docs/benchmarks.md, the control plane's cost a job).
 */
const STORE_AS_IS_BYTES = 256;

/**
 * `data` as a Brotli stream that any decoder reads (RFC 7932): one uncompressed meta-block, then
 * an empty last one. Its 21 header bits, lowest first: WBITS 16 (0), ISLAST 0, MNIBBLES 4 (00),
 * MLEN - 1 in 16 bits, ISUNCOMPRESSED 1; zeros up to the byte's end.
 */
function storedAsIs(data: Buffer): Buffer {
  const header = ((data.length - 1) << 4) | (1 << 20);
  const packed = Buffer.allocUnsafe(data.length + 4);
  packed[0] = header & 0xff;
  packed[1] = (header >> 8) & 0xff;
  packed[2] = header >> 16;
  data.copy(packed, 3);
  packed[data.length + 3] = 0b11; // ISLAST 1, ISLASTEMPTY 1
  return packed;
}

/**
 * An ended job's lines as stored: their JSON, Brotli-compressed (a chatty job's timed lines
 * shrink about 10 ×), a line or two as they are. Quality 5: past it, 10 MiB takes several times
 * longer for a few percent less; a large output is compressed in libuv's threads, so the service
 * keeps answering meanwhile.
 */
export async function packOutput(lines: readonly OutputLine[]): Promise<Buffer> {
  const json = Buffer.from(JSON.stringify(storedLinesOf(lines)));
  if (json.length <= STORE_AS_IS_BYTES) return storedAsIs(json);
  const options = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  };
  return json.length <= PACK_IN_THREAD_BYTES
    ? brotliCompressSync(json, options)
    : compress(json, options);
}

export async function unpackOutput(packed: Buffer): Promise<OutputLine[]> {
  const json = await decompress(packed);
  return outputLinesOf(JSON.parse(json.toString('utf8')) as StoredLine[]);
}
