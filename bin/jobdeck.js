#!/usr/bin/env node
// `jobdeck …`: the compiled CLI that `npm run build` writes (and an installed package ships).
/* global process, URL */
import { existsSync } from 'node:fs';

const cli = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('jobdeck: not built yet: run "npm run build" in this checkout first\n');
  process.exit(1);
}
await import(cli.href);
