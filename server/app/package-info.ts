import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder of Jobdeck's package.json, found by walking up from this module: the sources run
 * from server/ and the build from dist/server/, so no fixed number of `..` fits both.
 */
function packageRoot(): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${import.meta.dirname}`);
    dir = parent;
  }
  return dir;
}

const root = packageRoot();

export const packageVersion: string = (
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
).version;

/** Where `npm run build` puts the console. */
export const consoleDistDir = join(root, 'dist', 'console');

/** The demo configuration, shipped in the package as an example to copy. */
export const exampleConfigFile = join(root, 'config', 'jobdeck.yaml');
