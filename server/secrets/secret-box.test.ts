import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox, keyIdOf, openSecretBox, replaceKeyFile } from './secret-box';

/** A value as the first format sealed it, before keys had ids. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
    .join(':');
}

describe('sealed values carry a version and the id of their key', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('seals as v2:<key id>:…, and the key id is authenticated', () => {
    const box = new AesGcmSecretBox(newKey);
    const sealed = box.seal('s3cret');
    expect(sealed.split(':').slice(0, 2)).toEqual(['v2', keyIdOf(newKey)]);
    expect(box.open(sealed)).toBe('s3cret');
    const relabeled = sealed.replace(keyIdOf(newKey), keyIdOf(oldKey));
    expect(() => new AesGcmSecretBox(newKey, [oldKey]).open(relabeled)).toThrow();
  });

  it('opens with retired keys, seals only with the current one', () => {
    const before = new AesGcmSecretBox(oldKey).seal('old value');
    const rotated = new AesGcmSecretBox(newKey, [oldKey]);
    expect(rotated.open(before)).toBe('old value');
    expect(AesGcmSecretBox.keyIdOfSealed(rotated.seal('x'))).toBe(keyIdOf(newKey));
    expect(() => new AesGcmSecretBox(newKey).open(before)).toThrow(
      /key [0-9a-f]{12} is not configured/,
    );
  });

  it('still opens v1 values (no key id) with whichever configured key sealed them', () => {
    const legacy = sealV1(oldKey, 'from before key ids');
    expect(new AesGcmSecretBox(newKey, [oldKey]).open(legacy)).toBe('from before key ids');
    expect(AesGcmSecretBox.keyIdOfSealed(legacy)).toBeNull();
    expect(() => new AesGcmSecretBox(newKey).open(legacy)).toThrow(/none of the configured keys/);
  });
});

describe('request digests', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('are keyed: the same data under another key, or other data, does not match', () => {
    const box = new AesGcmSecretBox(newKey);
    const digest = box.digest('{"TOKEN":"s3cret"}');
    expect(digest.split(':')[0]).toBe(keyIdOf(newKey));
    // Not a plain hash of the data: without the key, a guess cannot be confirmed.
    expect(digest).not.toContain(
      createHash('sha256').update('{"TOKEN":"s3cret"}').digest('base64url'),
    );
    expect(box.digestMatches('{"TOKEN":"s3cret"}', digest)).toBe(true);
    expect(box.digestMatches('{"TOKEN":"guess"}', digest)).toBe(false);
    expect(new AesGcmSecretBox(oldKey).digestMatches('{"TOKEN":"s3cret"}', digest)).toBe(false);
  });

  it('still match after a rotation while the retired key is kept, and not once it is gone', () => {
    const digest = new AesGcmSecretBox(oldKey).digest('body');
    expect(new AesGcmSecretBox(newKey, [oldKey]).digestMatches('body', digest)).toBe(true);
    expect(new AesGcmSecretBox(newKey).digestMatches('body', digest)).toBe(false);
    expect(new AesGcmSecretBox(newKey).digestMatches('body', 'nonsense')).toBe(false);
  });
});

describe('key files', () => {
  it('new-key before any key file: nothing to replace, nothing written', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-keys-'));
    expect(replaceKeyFile(dataDir)).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('new-key: a fresh current key, the old one retired (0600), values of both open', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'jobdeck-keys-'));
    const config = { secret_key: undefined, retired_secret_keys: [], data_dir: dataDir };
    const first = openSecretBox(config);
    const sealed = first.seal('kept');
    const { retiredId, currentId } = replaceKeyFile(dataDir)!;
    expect(retiredId).toBe(first.currentKeyId);
    const second = openSecretBox(config);
    expect(second.currentKeyId).toBe(currentId);
    expect(second.open(sealed)).toBe('kept');
    for (const file of ['secret.key', 'secret.key.retired']) {
      expect(statSync(join(dataDir, file)).mode & 0o777).toBe(0o600);
    }
    expect(
      readFileSync(join(dataDir, 'secret.key.retired'), 'utf8').trim().split('\n'),
    ).toHaveLength(1);
  });
});
