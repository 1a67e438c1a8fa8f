import { z } from 'zod';
import { DEFAULT_KEEP_FINISHED, keepPeriod, positiveInt } from './fields';

export const retentionSection = z
  .strictObject({
    keep_finished_jobs: keepPeriod
      .prefault(DEFAULT_KEEP_FINISHED)
      .describe(
        'How long a finished job (completed, failed, timeout, cancelled, error) is kept, with its history, attempts, output and labels: 14d, 12h, 30m, 90s, or forever',
      ),
    prune_every_seconds: positiveInt
      .max(86_400, 'must be at most a day (86400)')
      .default(60)
      .describe('How often each instance deletes the finished jobs past their time'),
    batch_size: positiveInt
      .max(10_000, 'must be at most 10000')
      .default(200)
      .describe(
        'Jobs deleted per transaction; submits are served between batches (an array counts its children)',
      ),
  })
  .prefault({})
  .describe(
    "How long finished jobs are kept: this is every project's default; a project's or a queue's keep_finished_jobs overrides it (docs/guides/retention.md)",
  );

export const auditSection = z
  .strictObject({
    keep_days: positiveInt
      .max(3650, 'must be at most 3650')
      .default(90)
      .describe('How long audit events are kept; older ones are deleted by the retention pass'),
  })
  .prefault({})
  .describe(
    'The audit trail: who submitted, cancelled and changed what, and from where (docs/guides/audit.md)',
  );
