import { accessSync, constants, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { StartupError } from '../errors/startup-error';

const whoAmI = () => {
  const { username, uid } = userInfo();
  return `user ${username} (uid ${uid})`;
};

/**
 * data_dir holds the SQLite file and the key files: checked before anything is opened in it, so
 * that the answer names the directory rather than whichever file happened to be first.
 */
export function ensureWritableDirectory(dir: string, key = 'data_dir'): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new StartupError(
      `${key}: cannot write to ${dir} (${code}): make it a directory that ${whoAmI()} can write to, or choose another with --data-dir or JOBDECK_DATA_DIR`,
    );
  }
}

/** Why a listener could not open, in terms of the configuration key that chose its address. */
export function listenError(
  error: unknown,
  where: {
    key: string;
    flag?: string;
    variable?: string;
    host: string;
    port: number;
    hostKey?: string;
  },
): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const address = `${where.host}:${where.port}`;
  const elsewhere = where.flag
    ? `choose another port with ${where.flag}, ${where.variable} or ${where.key}: in the configuration`
    : `choose another ${where.key} in the configuration`;
  const hostKey = where.hostKey ?? 'host';
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(
        `${where.key}: ${address} is already in use (another Jobdeck, or another program: see ss -ltnp 'sport = :${where.port}'); stop it, or ${elsewhere}`,
      );
    case 'EACCES':
      return new StartupError(
        `${where.key}: ${whoAmI()} may not listen on ${address} (ports below 1024 need privileges); ${elsewhere}`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(
        `${hostKey}: ${where.host} is not an address of this machine (${code}); set ${hostKey === 'host' ? 'host (or JOBDECK_HOST)' : hostKey} to one of its addresses, 0.0.0.0 for all`,
      );
    default:
      return error as Error;
  }
}
