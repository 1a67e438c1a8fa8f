/** What a holder acts under: the lease is still `holder`'s, under `epoch`. */
export interface LeaseFence {
  name: string;
  holder: string;
  epoch: number;
}

/**
 * A claim refused because its lease is no longer the claimer's (it lapsed and another instance
 * took it): the claimer must stop dispatching at once; the new holder claims instead.
 */
export class LeaseLostError extends Error {
  constructor(readonly lease: string) {
    super(`the ${lease} lease is no longer this instance's`);
  }
}
