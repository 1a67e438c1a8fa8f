#!/usr/bin/env node
// `npx jobdeck …` in this checkout: the TypeScript CLI, loaded through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
