/** Seals and opens sensitive env values (server/secrets implements it). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
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
