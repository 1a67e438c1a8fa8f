import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIGURATION_PAGE,
  configReference,
  configRows,
  withReference,
} from '../../scripts/config-reference';

describe('docs/configuration.md', () => {
  it('holds the reference the config schema generates (npm run docs:config)', async () => {
    const page = readFileSync(CONFIGURATION_PAGE, 'utf8');
    expect(page).toBe(withReference(page, await configReference()));
    // Prettier formats the whole table: about 5 s on a busy machine, past Vitest's default.
  }, 30_000);

  it('describes every key, nested ones and each engine and store included', () => {
    const keys = configRows().map((row) => row.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'port',
        'http_timeouts.keep_alive_seconds',
        'engine (type: swarm).isolation',
        'store (type: postgres).url',
        'projects.<project>.queues.<queue>.paused',
        'projects.<project>.definitions.<definition>.<version>.read_only_root',
      ]),
    );
    expect(configRows().filter((row) => !row.description)).toEqual([]);
  });
});
