/**
 * The console's one short form of an id: `…` and its last 8 hex digits. Jobdeck's ids are UUIDv7,
 * whose first 12 digits are the millisecond they were made: jobs submitted together share them,
 * and their ends are random (docs/console.md). Other text (a key's id, a user) is left whole.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SHORT_ID_LENGTH = 8;
/** The fewest digits the service resolves: fewer would match too many jobs to be worth a read. */
export const SHORT_ID_MIN = 6;
const SHORT_ID = new RegExp(`^[0-9a-f]{${SHORT_ID_MIN},12}$`);

export function shortId(id: string): string {
  return UUID.test(id) ? `…${id.slice(-SHORT_ID_LENGTH)}` : id;
}

/** What a typed or pasted id is: a whole id, the end of one (6–12 hex digits), or neither. */
export type IdInput = { kind: 'whole'; id: string } | { kind: 'end'; end: string } | null;

export function parseIdInput(text: string): IdInput {
  const trimmed = text.trim();
  if (UUID.test(trimmed)) return { kind: 'whole', id: trimmed.toLowerCase() };
  // The short form as shown ("…3fa9c1d2") pastes with its ellipsis.
  const end = trimmed.replace(/^(?:…|\.\.\.)/, '').toLowerCase();
  return SHORT_ID.test(end) ? { kind: 'end', end } : null;
}
