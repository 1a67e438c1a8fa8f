/**
 * `dist/server/cli.js`, what `bin/jobdeck.js` and `npm start` run: the CLI bundle
 * (`jobdeck.cjs`) through V8's code cache, which saves compiling it on every start.
 * The cache goes beside the bundle, or into JOBDECK_CODE_CACHE_DIR: a service user may not
 * write to the install it runs, and should not.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runWithCodeCache } from './code-cache';

/** The first 16 hex digits of the bundle's SHA-256, written in by scripts/build.ts. */
declare const JOBDECK_BUNDLE_HASH: string;

const chosenDir = process.env.JOBDECK_CODE_CACHE_DIR;
// A folder that is not there would only make every start compile again, without a word.
if (chosenDir && !existsSync(chosenDir)) {
  process.stderr.write(
    `jobdeck: warning: JOBDECK_CODE_CACHE_DIR: ${chosenDir} does not exist; starts compile the service each time until it does\n`,
  );
}
const cacheDir = chosenDir || import.meta.dirname;
runWithCodeCache(
  join(import.meta.dirname, 'jobdeck.cjs'),
  join(cacheDir, `jobdeck.${JOBDECK_BUNDLE_HASH}.v8cache`),
);
