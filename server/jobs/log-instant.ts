import { LOG_INSTANT } from '../../contract';

/**
 * When an engine read a line of output, to the nanosecond as engines record it: RFC 3339 in UTC
 * with exactly nine fractional digits, so that two instants compare as strings. A millisecond
 * is too coarse to resume after: many lines share one.
 */
export type LogInstant = string;

/** Before any output: "every line" as a cursor. */
export const LOG_EPOCH: LogInstant = '1970-01-01T00:00:00.000000000Z';

/** Any RFC 3339 time (up to nine fractional digits, any offset) as a LogInstant, or undefined. */
export function toLogInstant(text: string): LogInstant | undefined {
  const match = LOG_INSTANT.exec(text);
  if (!match) return undefined;
  const [, wholeSeconds = '', fraction = '', zone = ''] = match;
  const seconds = Date.parse(`${wholeSeconds}${zone}`);
  if (!Number.isFinite(seconds)) return undefined;
  return `${new Date(seconds).toISOString().slice(0, 19)}.${fraction.padEnd(9, '0')}Z`;
}

export function logInstantOfNanos(nanos: bigint): LogInstant {
  const seconds = Number(nanos / 1_000_000_000n);
  const fraction = String(nanos % 1_000_000_000n).padStart(9, '0');
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** The instant to the millisecond, as every other time on the wire. */
export function millisIsoOf(instant: LogInstant): string {
  return `${instant.slice(0, 23)}Z`;
}

/** Whole seconds since the epoch and the nanoseconds past them. */
export function epochPartsOf(instant: LogInstant): { seconds: number; nanos: number } {
  return {
    seconds: Date.parse(`${instant.slice(0, 19)}Z`) / 1000,
    nanos: Number(instant.slice(20, 29)),
  };
}

export const laterOf = (a: LogInstant, b: LogInstant): LogInstant => (a > b ? a : b);
