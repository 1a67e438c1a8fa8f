/** Seals and opens sensitive env values (server/secrets implements it). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /**
   * A keyed digest of `data` (an HMAC under a key derived from the current secret key), naming
   * that key: the store alone does not let anyone confirm a guess of what went into it.
   */
  digest(data: string): string;
  /** Whether `digest` is data's, under the key it names (false once that key is gone). */
  digestMatches(data: string, digest: string): boolean;
}

/**
 * A sensitive value was sealed with a key this instance does not have (a retired key removed too
 * early, a restore without the key file, instances configured apart): the job waits for it.
 */
export class SecretKeyMissingError extends Error {
  constructor(readonly keyId: string) {
    super(
      `secret key ${keyId} is not configured: put it back (secret_key, retired_secret_keys, or data_dir/secret.key and secret.key.retired)`,
    );
  }
}
