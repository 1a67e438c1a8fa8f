/**
 * Brotli and gzip twins of the console's static files, written next to each (`x.js.br`,
 * `x.js.gz`) at build time, so the console server sends them as they are (@fastify/static's
 * `preCompressed`) instead of compressing on every request or not at all.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text the browser fetches; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;

export function precompress(dir: string): void {
  const files = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
  for (const file of files) {
    const bytes = readFileSync(file);
    const twins = {
      br: brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
      gz: gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }),
    };
    for (const [extension, compressed] of Object.entries(twins)) {
      // A twin no smaller than the file would only cost the browser a decoding.
      if (compressed.length < bytes.length) writeFileSync(`${file}.${extension}`, compressed);
    }
  }
}
