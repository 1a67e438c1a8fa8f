#!/usr/bin/env node
// `jobdeck …`: the compiled CLIs that `npm run build` writes (and an installed package ships).
// The client's verbs (submit, watch, logs, …) run from their own small bundle, every other verb
// (start, keys, users, …) from the service's.
/* global process, URL */
import { existsSync } from 'node:fs';

const client = new URL('../dist/client/cli.js', import.meta.url);
const service = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(client) || !existsSync(service)) {
  process.stderr.write('jobdeck: not built yet: run "npm run build" in this checkout first\n');
  process.exit(1);
}
const { CLIENT_VERBS, runClient } = await import(client.href);
if (CLIENT_VERBS.includes(process.argv[2])) await runClient(process.argv);
else await import(service.href);
