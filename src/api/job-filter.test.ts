import { afterEach, describe, expect, it, vi } from 'vitest';
import { listItem } from '../test/list-item';
import { detectCapabilities } from './detect-capabilities';
import { matchesFilter } from './job-filter';

describe('a live row against the list’s label filter', () => {
  const labelled = listItem('a', { labels: { team: 'data', ticket: 'OPS-1' } });
  const plain = listItem('b');

  it('keeps a row with every label asked for, by value or by key', () => {
    expect(matchesFilter({ states: [], labels: ['team=data'] }, labelled)).toBe(true);
    expect(matchesFilter({ states: [], labels: ['team=data', 'ticket'] }, labelled)).toBe(true);
    expect(matchesFilter({ states: [], labels: ['team=web'] }, labelled)).toBe(false);
    expect(matchesFilter({ states: [], labels: ['team', 'release'] }, labelled)).toBe(false);
    expect(matchesFilter({ states: [], labels: ['team'] }, plain)).toBe(false);
    expect(matchesFilter({ states: [] }, plain)).toBe(true);
  });

  it('reads a value holding "=" as the service does: split at the first', () => {
    const job = listItem('c', { labels: { expr: 'a=b' } });
    expect(matchesFilter({ states: [], labels: ['expr=a=b'] }, job)).toBe(true);
    expect(matchesFilter({ states: [], labels: ['expr=a'] }, job)).toBe(false);
  });
});

describe('the label capability', () => {
  afterEach(() => vi.unstubAllGlobals());
  const serve = (paths: object) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ paths }), { status: 200 })),
    );

  it('is the list’s `label` parameter in the OpenAPI document', async () => {
    const list = (names: string[]) => ({
      '/v1/client/jobs': { get: { parameters: names.map((name) => ({ name, in: 'query' })) } },
    });
    serve(list(['state', 'label']));
    expect((await detectCapabilities()).labels).toBe(true);
    serve(list(['state']));
    expect((await detectCapabilities()).labels).toBe(false);
    serve({});
    expect((await detectCapabilities()).labels).toBe(false);
  });
});
