import { isApiError } from './client';

/** 128 random bits in hex: crypto.randomUUID is only there on https and localhost pages. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether the service may have stored the job: anything but its answer that it refused it. */
const mayHaveStored = (error: unknown) =>
  !(isApiError(error) && error.kind === 'http' && error.status >= 400 && error.status < 500);

/**
 * The Idempotency-Key of one form's submits: a fresh key for each attempt, except the retry of
 * one that went unanswered (a network error, a 5xx) with the same contents, which sends its key
 * again, so that a job stored before the answer was lost is not stored twice.
 */
export class SubmitKeys {
  private pending: { contents: string; key: string } | null = null;

  keyFor(payload: unknown): string {
    const contents = JSON.stringify(payload);
    if (this.pending?.contents !== contents) this.pending = { contents, key: newKey() };
    return this.pending.key;
  }

  /** An attempt ended: its key is kept only when the service may have stored its job. */
  settled(error: unknown): void {
    if (error === null || !mayHaveStored(error)) this.pending = null;
  }
}
