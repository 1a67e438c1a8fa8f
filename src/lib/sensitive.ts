import type { SubmitJobRequest } from '../../contract';

/**
 * The payload with every sensitive env value replaced: blanked to keep, redacted to show. An
 * empty one stays empty: shown as `<redacted>` it would claim a secret where none will be sent.
 */
export function replaceSensitiveValues(
  payload: SubmitJobRequest,
  replacement: string,
): SubmitJobRequest {
  if (!payload.container_env) return payload;
  return {
    ...payload,
    container_env: Object.fromEntries(
      Object.entries(payload.container_env).map(([name, entry]) => [
        name,
        entry.sensitive && entry.value !== '' ? { ...entry, value: replacement } : entry,
      ]),
    ),
  };
}
