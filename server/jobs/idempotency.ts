import type { SubmitJobRequest } from '../../contract';
import { conflict } from './errors';
import type { HeldKey } from './model';
import type { SecretBox } from './ports';

/** JSON with every object's keys in order: two bodies that mean the same read the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What makes two submits "the same request": who sent it and the body as the contract read it
 * (keys in order, so their order in the JSON does not count). The project is the key's scope in
 * the store.
 */
const requestText = (actor: string, payload: SubmitJobRequest) => canonicalJson({ actor, payload });

/**
 * The request's digest, keyed by the secret box: sensitive values are in it, and a digest that
 * anyone with the database could recompute would let them confirm a guess of one.
 */
export const requestDigest = (secrets: SecretBox, actor: string, payload: SubmitJobRequest) =>
  secrets.digest(requestText(actor, payload));

/**
 * The answer a held key gives: its job, when the request is the one that made it; otherwise a
 * conflict naming the header.
 */
export function replayOf(
  secrets: SecretBox,
  held: HeldKey,
  actor: string,
  payload: SubmitJobRequest,
): string {
  if (secrets.digestMatches(requestText(actor, payload), held.digest)) return held.jobId;
  throw conflict(
    'Idempotency-Key: already used in this project for another request (a different body, or another key or user) within its window; send a new key for a new job',
  );
}
