/**
 * Every dialect's migrations, in the order they run: `NNN-what`, the same numbers and names in each
 * dialect (a store's version is the set of names it applied, whatever its driver), one file of
 * that name in each dialect's folder. Append-only: never rename or edit one that has shipped.
 */
export const MIGRATION_NAMES = [
  '001-jobs',
  '002-keys-and-meta',
  '003-job-owner',
  '004-instances',
  '005-run-options',
  '006-log-lines',
  '007-job-node',
  '008-queue-finished',
  '009-job-output',
  '010-job-attempts',
  '011-job-dependencies',
  '012-schedules',
  '013-waiting-jobs-index',
  '014-job-arrays',
  '015-project-output',
  '016-queue-controls',
  '017-job-labels',
  '018-saved-views',
  '019-bulk-actions',
  '020-retention',
  '021-runnable-not-before',
  '022-trends',
  '023-webhooks',
  '024-key-roles',
  '025-audit',
  '026-sign-in',
  '029-list-indexes',
  '030-finished-counts',
  '031-label-states',
  '032-dependency-ends',
  '033-job-id-ends',
  '034-list-sort-indexes',
  '035-idempotency-keys',
  '036-job-usage',
  '037-array-indexes',
  '038-change-order',
  '039-owner-epoch',
  '040-job-resources',
  '042-memory-sizing',
] as const;

export type MigrationName = (typeof MIGRATION_NAMES)[number];
