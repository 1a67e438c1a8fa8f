import type { Migration } from '../../sql/migrate';
import * as m001 from './001-jobs';
import * as m002 from './002-keys-and-meta';
import * as m003 from './003-job-owner';

/** The names are those in existing files' schema_migrations: never rename one. */
export const sqliteMigrations: readonly Migration[] = [
  { name: '001-jobs', up: m001.up },
  { name: '002-keys-and-meta', up: m002.up },
  { name: '003-job-owner', up: m003.up },
];
