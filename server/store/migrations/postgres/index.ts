import { inOrder } from '../in-order';
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
import * as m029 from './029-list-indexes';
import * as m030 from './030-finished-counts';
import * as m031 from './031-label-states';
import * as m032 from './032-dependency-ends';
import * as m033 from './033-job-id-ends';
import * as m034 from './034-list-sort-indexes';
import * as m035 from './035-idempotency-keys';
import * as m036 from './036-job-usage';
import * as m037 from './037-array-indexes';
import * as m038 from './038-change-order';
import * as m039 from './039-owner-epoch';
import * as m040 from './040-job-resources';
import * as m041 from './041-share-use';
import * as m042 from './042-memory-sizing';
import * as m043 from './043-leases';
import * as m044 from './044-incidents';
import * as m045 from './045-claim-lease-epoch';
import * as m046 from './046-preemption';
import * as m047 from './047-last-day-indexes';
import * as m048 from './048-finished-counts-per-backend';
import * as m049 from './049-project-output-per-backend';

/** PostgreSQL's. */
export const postgresMigrations = inOrder({
  '001-jobs': m001,
  '002-keys-and-meta': m002,
  '003-job-owner': m003,
  '004-instances': m004,
  '005-run-options': m005,
  '006-log-lines': m006,
  '007-job-node': m007,
  '008-queue-finished': m008,
  '009-job-output': m009,
  '010-job-attempts': m010,
  '011-job-dependencies': m011,
  '012-schedules': m012,
  '013-waiting-jobs-index': m013,
  '014-job-arrays': m014,
  '015-project-output': m015,
  '016-queue-controls': m016,
  '017-job-labels': m017,
  '018-saved-views': m018,
  '019-bulk-actions': m019,
  '020-retention': m020,
  '021-runnable-not-before': m021,
  '022-trends': m022,
  '023-webhooks': m023,
  '024-key-roles': m024,
  '025-audit': m025,
  '026-sign-in': m026,
  '029-list-indexes': m029,
  '030-finished-counts': m030,
  '031-label-states': m031,
  '032-dependency-ends': m032,
  '033-job-id-ends': m033,
  '034-list-sort-indexes': m034,
  '035-idempotency-keys': m035,
  '036-job-usage': m036,
  '037-array-indexes': m037,
  '038-change-order': m038,
  '039-owner-epoch': m039,
  '040-job-resources': m040,
  '041-share-use': m041,
  '042-memory-sizing': m042,
  '043-leases': m043,
  '044-incidents': m044,
  '045-claim-lease-epoch': m045,
  '046-preemption': m046,
  '047-last-day-indexes': m047,
  '048-finished-counts-per-backend': m048,
  '049-project-output-per-backend': m049,
});
