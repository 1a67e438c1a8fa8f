import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretBox } from '../jobs/ports';

const VERSION = 'v1';

/** AES-256-GCM: a fresh 96-bit IV per value, the tag authenticates it. */
export class AesGcmSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32)
      throw new Error('secret key: must be 32 bytes (base64 of 32 random bytes)');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      data.toString('base64'),
    ].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) {
      throw new Error('sealed value: unknown format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * The key from configuration (base64), or else a key file in the data directory,
 * generated on first start with mode 0600.
 */
export function loadSecretKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, 'base64');
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
