import type { Migration } from '../../sql/migrate';
import * as m001 from './001-jobs';
import * as m002 from './002-keys-and-meta';
import * as m003 from './003-job-owner';
import * as m004 from './004-instances';
import * as m005 from './005-run-options';
import * as m006 from './006-log-lines';
import * as m007 from './007-job-node';
import * as m008 from './008-queue-finished';
import * as m009 from './009-job-output';
import * as m010 from './010-job-attempts';
import * as m011 from './011-job-dependencies';
import * as m012 from './012-schedules';
import * as m013 from './013-waiting-jobs-index';
import * as m014 from './014-job-arrays';
import * as m015 from './015-project-output';
import * as m016 from './016-queue-controls';
import * as m017 from './017-job-labels';
import * as m018 from './018-saved-views';
import * as m019 from './019-bulk-actions';
import * as m020 from './020-retention';
import * as m021 from './021-runnable-not-before';
import * as m022 from './022-trends';
import * as m023 from './023-webhooks';
import * as m024 from './024-key-roles';
import * as m025 from './025-audit';
import * as m026 from './026-sign-in';

/** The names are those in existing files' schema_migrations: never rename one. */
export const sqliteMigrations: readonly Migration[] = [
  { name: '001-jobs', up: m001.up },
  { name: '002-keys-and-meta', up: m002.up },
  { name: '003-job-owner', up: m003.up },
  { name: '004-instances', up: m004.up },
  { name: '005-run-options', up: m005.up },
  { name: '006-log-lines', up: m006.up },
  { name: '007-job-node', up: m007.up },
  { name: '008-queue-finished', up: m008.up },
  { name: '009-job-output', up: m009.up },
  { name: '010-job-attempts', up: m010.up },
  { name: '011-job-dependencies', up: m011.up },
  { name: '012-schedules', up: m012.up },
  { name: '013-waiting-jobs-index', up: m013.up },
  { name: '014-job-arrays', up: m014.up },
  { name: '015-project-output', up: m015.up },
  { name: '016-queue-controls', up: m016.up },
  { name: '017-job-labels', up: m017.up },
  { name: '018-saved-views', up: m018.up },
  { name: '019-bulk-actions', up: m019.up },
  { name: '020-retention', up: m020.up },
  { name: '021-runnable-not-before', up: m021.up },
  { name: '022-trends', up: m022.up },
  { name: '023-webhooks', up: m023.up },
  { name: '024-key-roles', up: m024.up },
  { name: '025-audit', up: m025.up },
  { name: '026-sign-in', up: m026.up },
];
