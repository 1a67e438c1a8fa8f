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

describe('a live row against an ended range', () => {
  const ended = (at: string | null) => listItem('e', { state: 'error', finished_at: at });
  const range = {
    states: [],
    endedAfter: '2026-11-27T08:00:00.000Z',
    endedBefore: '2026-11-27T09:00:00.000Z',
  };

  it('keeps a row that ended in the range, from its start up to (not at) its end', () => {
    expect(matchesFilter(range, ended('2026-11-27T08:00:00.000Z'))).toBe(true);
    expect(matchesFilter(range, ended('2026-11-27T08:59:59.999Z'))).toBe(true);
    expect(matchesFilter(range, ended('2026-11-27T09:00:00.000Z'))).toBe(false);
    expect(matchesFilter(range, ended('2026-11-27T07:59:59.999Z'))).toBe(false);
    expect(matchesFilter(range, ended(null))).toBe(false);
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
