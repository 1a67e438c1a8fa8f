import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';
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
 * An ended job's lines as stored: their JSON, Brotli-compressed (a chatty job's timed lines
 * shrink about 10 ×). Quality 5: past it, 10 MiB takes several times longer for a few percent
 * less; compressed in libuv's threads, so the service keeps answering meanwhile.
 */
export function packOutput(lines: readonly OutputLine[]): Promise<Buffer> {
  const json = Buffer.from(JSON.stringify(storedLinesOf(lines)));
  return compress(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
}

export async function unpackOutput(packed: Buffer): Promise<OutputLine[]> {
  const json = await decompress(packed);
  return outputLinesOf(JSON.parse(json.toString('utf8')) as StoredLine[]);
}
