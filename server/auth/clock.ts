/**
 * The time as milliseconds since the epoch. Sessions and sign-ins read it through this port, so
 * their expiry can be tested by moving a clock instead of waiting.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
