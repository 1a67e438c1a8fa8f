import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load';

const dir = mkdtempSync(join(tmpdir(), 'jobdeck-trusted-proxies-'));

function load(line?: string) {
  const file = join(dir, 'jobdeck.yaml');
  writeFileSync(
    file,
    [
      'port: 0',
      ...(line ? [line] : []),
      'projects: { p: { queues: { a: {} }, definitions: {} } }',
    ].join('\n'),
  );
  return () => loadConfig(file);
}

describe('trusted_proxies', () => {
  it('trusts nobody unless told', () => {
    expect(load()().trusted_proxies).toEqual([]);
  });

  it('takes addresses and CIDR networks of both families', () => {
    const listed = ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '0.0.0.0/0'];
    expect(load(`trusted_proxies: [${listed.join(', ')}]`)().trusted_proxies).toEqual(listed);
  });

  it.each(['nginx.local', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/8', '10.0.0.0/', '10.0.0.0/x'])(
    'refuses %s, naming the key and the line',
    (entry) => {
      expect(load(`trusted_proxies: ["${entry}"]`)).toThrow(
        /:2: trusted_proxies\[0\]: must be an IP address or a CIDR network/,
      );
    },
  );
});
