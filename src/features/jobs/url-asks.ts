/**
 * The URLs the jobs table asked the router for, in order, while they are on their way. The
 * router shows asks late (in a transition) and may show one before the next: each ask must build
 * on the last one asked, not on the one shown, or a change made in between (a name applied while
 * a state pick is on its way) is lost.
 */
export interface Asks {
  /** The key of the location shown when the first of them was asked. */
  readonly origin: string;
  readonly searches: readonly string[];
}

/** What the router shows now. */
export interface Shown {
  readonly key: string;
  readonly search: string;
  readonly navigationType: 'POP' | 'PUSH' | 'REPLACE';
}

/** Whether what is shown came from these asks: their origin, or one of them pushed. */
function showsOurs(asks: Asks, shown: Shown): boolean {
  return (
    shown.key === asks.origin ||
    (shown.navigationType === 'PUSH' && asks.searches.includes(shown.search))
  );
}

function lastOf(asks: Asks): string {
  return asks.searches[asks.searches.length - 1]!;
}

/**
 * The search a change builds on: the last one asked while the router shows the asks' origin or
 * one of them; what it shows once it has moved anywhere else (Back, a link), so nothing asked
 * before that can return.
 */
export function baseSearch(asks: Asks | null, shown: Shown): string {
  return asks !== null && showsOurs(asks, shown) ? lastOf(asks) : shown.search;
}

/** The asks once `search` is asked for, with what is shown now. */
export function withAsk(asks: Asks | null, shown: Shown, search: string): Asks {
  const onTheirWay = asks !== null && showsOurs(asks, shown) && lastOf(asks) !== shown.search;
  return onTheirWay
    ? { origin: asks.origin, searches: [...asks.searches, search] }
    : { origin: shown.key, searches: [search] };
}
