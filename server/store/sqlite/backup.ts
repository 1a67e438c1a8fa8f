import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/** sqlite3_backup_step's page count: the largest better-sqlite3 passes, so every page at once. */
const ALL_PAGES = 0x7fffffff;

/** The path with its directory's symlinks resolved, so two names of one file compare equal. */
function canonical(file: string): string {
  const dir = dirname(file);
  return existsSync(dir) ? resolve(realpathSync(dir), basename(file)) : file;
}

/**
 * Copies the SQLite file `source` to `destination` with SQLite's online backup API, safe while
 * the service runs on it (WAL: the copy reads one consistent snapshot and writers go on). Every
 * page is copied in one step: copied a hundred at a time, each write of the running service
 * would start the copy over. The copy holds sealed values and key hashes, so it is created
 * readable by this user only (0600), like the store itself. Nothing is migrated or changed in
 * the source; the copy is the file as it is.
 */
export async function backupSqliteFile(source: string, destination: string): Promise<void> {
  const from = canonical(resolve(source));
  const to = canonical(resolve(destination));
  if ([from, `${from}-wal`, `${from}-shm`].includes(to)) {
    throw new Error(`${destination} is the store's own file; name a file elsewhere`);
  }
  if (!existsSync(from)) throw new Error(`no SQLite file at ${from} (has the service started?)`);
  if (!existsSync(dirname(to))) throw new Error(`no directory ${dirname(to)} for ${destination}`);
  if (existsSync(to) && !statSync(to).isFile()) {
    throw new Error(`${destination} is not a file; name the file to write the backup to`);
  }

  const created = !existsSync(to);
  closeSync(openSync(to, 'a', 0o600));
  chmodSync(to, 0o600);
  const db = new SqliteDatabase(from, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(to, { progress: () => ALL_PAGES });
  } catch (error) {
    if (created) rmSync(to, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
