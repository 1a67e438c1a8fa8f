import { SqlMemberStore } from './identity/member-store';
import { SqlSessionStore } from './identity/session-store';
import { SqlUserStore } from './identity/user-store';
import { sql, type Kysely } from 'kysely';
import type { Store } from '../ports';
import type { Database } from '../schema';
import type { StoreDialect } from './dialect';
import type { Signals } from '../../jobs/ports';
import { SqlAuditStore } from './audit-store';
import { SqlBulkActionStore } from './bulk-action-store';
import { SqlInstanceRegistry } from './instance-registry';
import { SqlLeaseStore } from './leases';
import { sqlJobStores } from './jobs';
import { CachedKeyStore } from './cached-key-store';
import { SqlKeyStore } from './key-store';
import { SqlMetaStore } from './meta-store';
import { SqlTrendStore } from './trend-store';
import { SqlIncidentStore } from './incident-store';
import { SqlViewStore } from './view-store';
import { SqlWebhookStore } from './webhook-store';
import { migrate } from './migrate';

/**
 * Brings the schema up to date, then hands out the stores over one Kysely instance.
 * `cacheKeys`: for a database across the network, where each key's read is a round trip.
 */
export async function openSqlStore(
  db: Kysely<Database>,
  dialect: StoreDialect,
  signals: Signals & { close?(): Promise<void> },
  { cacheKeys = false } = {},
): Promise<Store> {
  let migrated: string[];
  try {
    migrated = await migrate(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    ...sqlJobStores(db, dialect),
    async ping() {
      await sql`select 1`.execute(db);
    },
    keys: cacheKeys
      ? new CachedKeyStore(new SqlKeyStore(db, dialect), signals)
      : new SqlKeyStore(db, dialect),
    users: new SqlUserStore(db),
    members: new SqlMemberStore(db),
    sessions: new SqlSessionStore(db),
    audit: new SqlAuditStore(db),
    views: new SqlViewStore(db, dialect),
    bulkActions: new SqlBulkActionStore(db),
    webhooks: new SqlWebhookStore(db, dialect),
    trends: new SqlTrendStore(db, dialect),
    incidents: new SqlIncidentStore(db),
    meta: new SqlMetaStore(db),
    instances: new SqlInstanceRegistry(db),
    leases: new SqlLeaseStore(db),
    signals,
    migrated,
    async close() {
      await signals.close?.();
      await db.destroy();
    },
  };
}
