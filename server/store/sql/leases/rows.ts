import type { Selectable } from 'kysely';
import type { LeaseRecord } from '../../../jobs/ports';
import type { LeasesTable } from '../../schema';

export const toLease = (row: Selectable<LeasesTable>): LeaseRecord => ({
  name: row.name,
  holder: row.holder,
  epoch: row.epoch,
  expiresAt: row.expires_at,
});
