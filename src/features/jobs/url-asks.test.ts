import { describe, expect, it } from 'vitest';
import { baseSearch, withAsk, type Shown } from './url-asks';

const at = (key: string, search: string, navigationType: Shown['navigationType'] = 'PUSH') => ({
  key,
  search,
  navigationType,
});

describe('the jobs table asking the router for URLs', () => {
  it('builds each change on the last one asked while the router shows one of them before the next', () => {
    const origin = at('k0', '', 'POP');
    let asks = withAsk(null, origin, 'state=runnable');
    expect(baseSearch(asks, origin)).toBe('state=runnable');
    // A name applied from the origin before the pick is shown: both kept.
    asks = withAsk(asks, origin, 'state=runnable&name=a');
    // The router shows the first ask, the second still on its way: a third change keeps the name.
    const first = at('k1', 'state=runnable');
    expect(baseSearch(asks, first)).toBe('state=runnable&name=a');
    asks = withAsk(asks, first, 'state=runnable&name=a&created=1h');
    expect(asks.searches).toEqual([
      'state=runnable',
      'state=runnable&name=a',
      'state=runnable&name=a&created=1h',
    ]);
    // All shown: the next change builds on what is shown, and starts afresh from it.
    const last = at('k3', 'state=runnable&name=a&created=1h');
    expect(baseSearch(asks, last)).toBe(last.search);
    expect(withAsk(asks, last, 'created=1h')).toEqual({ origin: 'k3', searches: ['created=1h'] });
  });

  it('drops what was asked and not shown once the router moves elsewhere', () => {
    const asks = withAsk(null, at('k0', 'name=a', 'POP'), 'name=a&state=failed');
    // Back before the ask was shown: the change builds on the URL Back went to.
    const back = at('k9', 'name=a', 'POP');
    expect(baseSearch(asks, back)).toBe('name=a');
    expect(withAsk(asks, back, 'name=a&state=running')).toEqual({
      origin: 'k9',
      searches: ['name=a&state=running'],
    });
    // A link to some other view, pushed: the same.
    expect(baseSearch(asks, at('k8', 'queue=q'))).toBe('queue=q');
    // Forward or Back onto a URL that equals an ask is still not one of them.
    expect(baseSearch(asks, at('k7', 'name=a&state=failed', 'POP'))).toBe('name=a&state=failed');
    expect(baseSearch(null, at('k6', 'name=b'))).toBe('name=b');
  });
});
