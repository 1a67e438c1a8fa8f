import type { SubmitRequest } from './submission';

/** The payload with every sensitive env value replaced: blanked to keep, redacted to show. */
export function replaceSensitiveValues(payload: SubmitRequest, replacement: string): SubmitRequest {
  if (!payload.container_env) return payload;
  return {
    ...payload,
    container_env: Object.fromEntries(
      Object.entries(payload.container_env).map(([name, entry]) => [
        name,
        entry.sensitive ? { ...entry, value: replacement } : entry,
      ]),
    ),
  };
}
