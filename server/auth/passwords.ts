import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt from Node's own crypto: memory-hard (32 MiB a hash with these parameters, about 100 ms
 * on one core), so a stolen store gives up its passwords slowly. The parameters are stored with
 * each hash, so raising them later leaves older hashes readable.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** The most memory a stored hash may ask for: a hash cannot be made to exhaust the service. */
const MAX_MEMORY = 128 * 1024 * 1024;

export const PASSWORD_LIMITS = { minLength: 12, maxLength: 1024 };

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PARAMETERS;
  const key = await derive(password, salt, PARAMETERS);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** A hash of nothing, checked when the user is unknown: both answers take the same time. */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, false after the same work. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  const [scheme, n, r, p, salt, expected] = (stored ?? (await decoy)).split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  const wanted = Buffer.from(expected, 'base64');
  return stored !== null && key.length === wanted.length && timingSafeEqual(key, wanted);
}

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_LIMITS.minLength) {
    return `must be at least ${PASSWORD_LIMITS.minLength} characters`;
  }
  if (password.length > PASSWORD_LIMITS.maxLength) {
    return `must be at most ${PASSWORD_LIMITS.maxLength} characters`;
  }
  return null;
}
