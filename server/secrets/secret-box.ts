import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { JobdeckConfig } from '../config/schema';
import { SecretKeyMissingError, type SecretBox } from '../jobs/ports';

/**
 * Sealed values: `v2:<key id>:<iv>:<tag>:<data>` (base64 parts). The key id names the key that
 * sealed the value, so rotation knows what still needs an old key; the version and key id are the
 * GCM's additional data, so neither can be changed without the value failing to open.
 * `v1:<iv>:<tag>:<data>` values (before key ids) still open, with whichever known key fits.
 */
const VERSION = 'v2';
const LEGACY_VERSION = 'v1';

/** A key's id: derived from the key itself, so it needs no configuration and cannot drift. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256')
    .update('jobdeck secret key id\0')
    .update(key)
    .digest('hex')
    .slice(0, 12);
}

function checkedKey(key: Buffer): Buffer {
  if (key.length !== 32)
    throw new Error('secret key: must be 32 bytes (base64 of 32 random bytes)');
  return key;
}

/** AES-256-GCM: a fresh 96-bit IV per value, the tag authenticates it. */
export class AesGcmSecretBox implements SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly keys = new Map<string, Buffer>();
  /** Each key's digest key, derived when first used: a key serves one purpose, not two. */
  private readonly digestKeys = new Map<string, Buffer>();

  /** `current` seals; it and every `retired` key open. */
  constructor(current: Buffer, retired: readonly Buffer[] = []) {
    this.current = { id: keyIdOf(checkedKey(current)), key: current };
    for (const key of [current, ...retired]) this.keys.set(keyIdOf(checkedKey(key)), key);
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(`${VERSION}:${this.current.id}`));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv, cipher.getAuthTag(), data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
      .join(':');
  }

  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts[0] === VERSION && parts.length === 5) {
      const [, id = '', iv = '', tag = '', data = ''] = parts;
      const key = this.keys.get(id);
      if (!key) throw new SecretKeyMissingError(id);
      return decrypt(key, iv, tag, data, `${VERSION}:${id}`);
    }
    if (parts[0] === LEGACY_VERSION && parts.length === 4) {
      const [, iv = '', tag = '', data = ''] = parts;
      for (const key of this.keys.values()) {
        try {
          return decrypt(key, iv, tag, data, null);
        } catch {
          // Not this key: the tag did not verify. Try the next.
        }
      }
      throw new Error('sealed value (v1): none of the configured keys opens it');
    }
    throw new Error('sealed value: unknown format');
  }

  digest(data: string): string {
    return `${this.current.id}:${this.mac(this.current.id, data)!}`;
  }

  digestMatches(data: string, digest: string): boolean {
    const [id = '', mac = ''] = digest.split(':');
    const expected = this.mac(id, data);
    if (expected === undefined || expected.length !== mac.length) return false;
    return timingSafeEqual(Buffer.from(expected), Buffer.from(mac));
  }

  /** HMAC-SHA-256 of `data` under the digest key of key `id`; undefined without that key. */
  private mac(id: string, data: string): string | undefined {
    let digestKey = this.digestKeys.get(id);
    if (!digestKey) {
      const key = this.keys.get(id);
      if (!key) return undefined;
      digestKey = Buffer.from(hkdfSync('sha256', key, '', 'jobdeck request digest', 32));
      this.digestKeys.set(id, digestKey);
    }
    return createHmac('sha256', digestKey).update(data).digest('base64url');
  }

  /** The id of the key that sealed a value; null for a v1 value, which names none. */
  static keyIdOfSealed(sealed: string): string | null {
    const parts = sealed.split(':');
    return parts[0] === VERSION ? (parts[1] ?? null) : null;
  }
}

function decrypt(key: Buffer, iv: string, tag: string, data: string, aad: string | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  if (aad !== null) decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
    'utf8',
  );
}

const KEY_FILE = 'secret.key';
const RETIRED_FILE = 'secret.key.retired';

const readKeys = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line) => Buffer.from(line, 'base64'))
    : [];

interface SecretKeys {
  current: Buffer;
  retired: Buffer[];
}

/**
 * The current key from configuration (base64), or else the key file in the data directory,
 * generated on first start with mode 0600. Retired keys, which only open, come from
 * configuration and from `secret.key.retired` (one base64 key a line, written by
 * `jobdeck secrets new-key`).
 */
function loadSecretKeys(
  config: Pick<JobdeckConfig, 'secret_key' | 'retired_secret_keys' | 'data_dir'>,
): SecretKeys {
  const retired = [
    ...config.retired_secret_keys.map((key) => Buffer.from(key, 'base64')),
    ...readKeys(join(config.data_dir, RETIRED_FILE)),
  ];
  if (config.secret_key) return { current: Buffer.from(config.secret_key, 'base64'), retired };
  const dataDir = config.data_dir;
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return { current: readKeys(file)[0]!, retired };
}

/**
 * The ids of the keys the configuration gives, the key file's included, without making one: what
 * a start checks stored values against before it would generate a key nothing was sealed with.
 */
export function configuredKeyIds(
  config: Pick<JobdeckConfig, 'secret_key' | 'retired_secret_keys' | 'data_dir'>,
): Set<string> {
  const keys = [
    ...(config.secret_key ? [Buffer.from(config.secret_key, 'base64')] : []),
    ...readKeys(join(config.data_dir, KEY_FILE)),
    ...config.retired_secret_keys.map((key) => Buffer.from(key, 'base64')),
    ...readKeys(join(config.data_dir, RETIRED_FILE)),
  ];
  return new Set(keys.filter((key) => key.length === 32).map(keyIdOf));
}

/** The service's secret box: the current key seals, retired keys (and it) open. */
export function openSecretBox(
  config: Pick<JobdeckConfig, 'secret_key' | 'retired_secret_keys' | 'data_dir'>,
): AesGcmSecretBox {
  const { current, retired } = loadSecretKeys(config);
  return new AesGcmSecretBox(current, retired);
}

/**
 * Key-file rotation, step one: a new current key file, the old key appended to the retired file
 * (0600) so that what it sealed still opens. Returns the ids of the old and new keys, or
 * undefined when there is no key file yet.
 */
export function replaceKeyFile(
  dataDir: string,
): { retiredId: string; currentId: string } | undefined {
  const file = join(dataDir, KEY_FILE);
  const [old] = readKeys(file);
  if (!old) return undefined; // nothing sealed yet: the first start makes the first key
  const key = randomBytes(32);
  appendFileSync(join(dataDir, RETIRED_FILE), `${old.toString('base64')}\n`, { mode: 0o600 });
  writeFileSync(`${file}.new`, key.toString('base64'), { mode: 0o600 });
  renameSync(`${file}.new`, file);
  return { retiredId: keyIdOf(old), currentId: keyIdOf(key) };
}
