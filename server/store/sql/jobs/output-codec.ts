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
 * An ended job's lines as stored: their JSON, Brotli-compressed (a chatty job's timed lines
 * shrink about 10 ×). Quality 5: past it, 10 MiB takes several times longer for a few percent
 * less; a large output is compressed in libuv's threads, so the service keeps answering meanwhile.
 */
export async function packOutput(lines: readonly OutputLine[]): Promise<Buffer> {
  const json = Buffer.from(JSON.stringify(storedLinesOf(lines)));
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
