import { sql, type Kysely, type Selectable } from 'kysely';
import { parseLabelSelector, labelSelectorText, type JobState } from '../../../contract';
import type { JobChange } from '../../jobs/model';
import type {
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryState,
  WebhookRecord,
} from '../../jobs/webhook-records';
import type {
  AdvanceParams,
  ChangesIntoParams,
  ClaimDueParams,
  PruneBatch,
  ReplaceSecretParams,
  Settlement,
  WebhookChanges,
  WebhookStore,
} from '../../jobs/ports';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../schema';
import type { StoreDialect } from './dialect';
import { readChanges } from './jobs/change-feed';

/** Rows per insert statement, twelve parameters each. */
const INSERT_CHUNK = 500;

const toWebhook = (row: Selectable<WebhooksTable>): WebhookRecord => ({
  id: row.id,
  project: row.project,
  url: row.url,
  description: row.description,
  states: JSON.parse(row.states_json) as JobState[],
  queues: JSON.parse(row.queues_json) as string[],
  labels: (JSON.parse(row.labels_json) as string[]).flatMap(
    (text) => parseLabelSelector(text) ?? [],
  ),
  sealedSecret: row.secret_sealed,
  fromSeq: Number(row.from_seq),
  createdBy: row.created_by,
  createdAt: Number(row.created_at),
});

const toDelivery = (row: Selectable<WebhookDeliveriesTable>): DeliveryRecord => ({
  id: row.id,
  webhookId: row.webhook_id,
  eventType: row.event_type,
  jobId: row.job_id,
  payload: row.payload,
  state: row.state as DeliveryState,
  attempts: Number(row.attempts),
  nextAttemptAt: Number(row.next_attempt_at),
  leaseUntil: Number(row.lease_until),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastLatencyMs: row.last_latency_ms === null ? null : Number(row.last_latency_ms),
  lastError: row.last_error,
  createdAt: Number(row.created_at),
  finishedAt: row.finished_at === null ? null : Number(row.finished_at),
});

const toDeliveryRow = (d: DeliveryRecord) => ({
  id: d.id,
  webhook_id: d.webhookId,
  event_type: d.eventType,
  job_id: d.jobId,
  payload: d.payload,
  state: d.state,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt,
  lease_until: d.leaseUntil,
  last_error: d.lastError,
  created_at: d.createdAt,
  finished_at: d.finishedAt,
});

export class SqlWebhookStore implements WebhookStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: StoreDialect,
  ) {}

  create(webhook: WebhookRecord, atMost: number) {
    return this.db.transaction().execute(async (trx) => {
      await this.dialect.serializeLimit(trx, `webhooks:${webhook.project}`);
      const { count } = await trx
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('project', '=', webhook.project)
        .executeTakeFirstOrThrow();
      if (Number(count) >= atMost) return false;
      await trx
        .insertInto('webhooks')
        .values({
          id: webhook.id,
          project: webhook.project,
          url: webhook.url,
          description: webhook.description,
          states_json: JSON.stringify(webhook.states),
          queues_json: JSON.stringify(webhook.queues),
          labels_json: JSON.stringify(webhook.labels.map(labelSelectorText)),
          secret_sealed: webhook.sealedSecret,
          from_seq: webhook.fromSeq,
          created_by: webhook.createdBy,
          created_at: webhook.createdAt,
        })
        .execute();
      return true;
    });
  }

  async list(project?: string) {
    let query = this.db.selectFrom('webhooks').selectAll();
    if (project !== undefined) query = query.where('project', '=', project);
    const rows = await query.orderBy('created_at').orderBy('id').execute();
    return rows.map(toWebhook);
  }

  async remove(id: string) {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      const gone = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
      return Number(gone.numDeletedRows) > 0;
    });
  }

  async update(id: string, changes: WebhookChanges) {
    const updated = await this.db
      .updateTable('webhooks')
      .set({
        ...(changes.url !== undefined && { url: changes.url }),
        ...(changes.description !== undefined && { description: changes.description }),
        ...(changes.states && { states_json: JSON.stringify(changes.states) }),
        ...(changes.queues && { queues_json: JSON.stringify(changes.queues) }),
        ...(changes.labels && {
          labels_json: JSON.stringify(changes.labels.map(labelSelectorText)),
        }),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async replaceSecret({ id, readSealed, sealed }: ReplaceSecretParams) {
    const replaced = await this.db
      .updateTable('webhooks')
      .set({ secret_sealed: sealed })
      .where('id', '=', id)
      .where('secret_sealed', '=', readSealed)
      .executeTakeFirst();
    return Number(replaced.numUpdatedRows) > 0;
  }

  async cursor(initial: number): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_cursor')
      .select('seq')
      .where('id', '=', 1)
      .executeTakeFirst();
    if (row) return Number(row.seq);
    await this.db
      .insertInto('webhook_cursor')
      .values({ id: 1, seq: initial })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return this.cursor(initial);
  }

  changesInto({ states, afterSeq, uptoSeq, limit }: ChangesIntoParams): Promise<JobChange[]> {
    return readChanges(this.db, { toStates: states, afterSeq, uptoSeq, limit });
  }

  async advance({ fromSeq, toSeq, deliveries }: AdvanceParams) {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('webhook_cursor')
        .set({ seq: toSeq })
        .where('id', '=', 1)
        .where('seq', '=', fromSeq)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      // In chunks: one statement's parameters are bounded (SQLite: 32,766).
      for (let at = 0; at < deliveries.length; at += INSERT_CHUNK) {
        await trx
          .insertInto('webhook_deliveries')
          .values(deliveries.slice(at, at + INSERT_CHUNK).map(toDeliveryRow))
          .execute();
      }
      return true;
    });
  }

  async enqueue(delivery: DeliveryRecord) {
    await this.db.insertInto('webhook_deliveries').values(toDeliveryRow(delivery)).execute();
  }

  async claimDue({
    now,
    leaseUntil,
    limit,
    perWebhook,
  }: ClaimDueParams): Promise<ClaimedDelivery[]> {
    // The oldest due, at most `perWebhook` in flight to one webhook (those leased counted), so
    // that a receiver that hangs holds a few requests and not every one.
    const due = sql<string>`(
      SELECT d.id FROM (
        SELECT id, webhook_id, next_attempt_at,
          row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS place
        FROM webhook_deliveries
        WHERE state = 'pending' AND next_attempt_at <= ${now} AND lease_until <= ${now}
      ) d
      LEFT JOIN (
        SELECT webhook_id, count(*) AS held FROM webhook_deliveries
        WHERE state = 'pending' AND lease_until > ${now}
        GROUP BY webhook_id
      ) h ON h.webhook_id = d.webhook_id
      WHERE d.place + coalesce(h.held, 0) <= ${perWebhook}
      ORDER BY d.next_attempt_at
      LIMIT ${limit}
    )`;
    // Compare-and-set on the lease: of two couriers claiming one delivery at once, one takes it.
    const claimed = await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .where('state', '=', 'pending')
      .where('lease_until', '<=', now)
      .returningAll()
      .execute();
    if (claimed.length === 0) return [];
    const hooks = await this.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'secret_sealed'])
      .where(
        'id',
        'in',
        claimed.map((row) => row.webhook_id),
      )
      .execute();
    const byId = new Map(hooks.map((hook) => [hook.id, hook]));
    // Stored by a fan-out that read the webhook just before it was deleted: they go too.
    const orphans = claimed.filter((row) => !byId.has(row.webhook_id)).map((row) => row.id);
    if (orphans.length > 0) {
      await this.db.deleteFrom('webhook_deliveries').where('id', 'in', orphans).execute();
    }
    return claimed.flatMap((row) => {
      const hook = byId.get(row.webhook_id);
      return hook ? [{ ...toDelivery(row), url: hook.url, sealedSecret: hook.secret_sealed }] : [];
    });
  }

  async settle(settlements: Settlement[]) {
    await this.db.transaction().execute(async (trx) => {
      for (const { delivery, outcome } of settlements) {
        await trx
          .updateTable('webhook_deliveries')
          .set({
            state: outcome.state,
            last_status: outcome.status,
            last_latency_ms: outcome.latencyMs,
            last_error: outcome.error,
            next_attempt_at: outcome.nextAttemptAt,
            lease_until: 0,
            finished_at: outcome.state === 'pending' ? null : outcome.now,
          })
          .where('id', '=', delivery.id)
          .where('attempts', '=', delivery.attempts)
          .where('state', '=', 'pending')
          .execute();
        if (outcome.state !== 'pending' || outcome.error === null) continue;
        // A failed attempt holds back the webhook's other due deliveries until its own next
        // try: a receiver that is down is tried on the backoff's schedule, not once per event.
        await trx
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: outcome.nextAttemptAt })
          .where('webhook_id', '=', delivery.webhookId)
          .where('state', '=', 'pending')
          .where('lease_until', '<=', outcome.now)
          .where('next_attempt_at', '<', outcome.nextAttemptAt)
          .execute();
      }
    });
  }

  async nextDueAt() {
    // When it can be claimed: its time, or its lease's end when a courier holds it.
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select(
        sql<
          number | null
        >`min(case when lease_until > next_attempt_at then lease_until else next_attempt_at end)`.as(
          'due',
        ),
      )
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
  }

  async deliveries(webhookId: string, limit: number) {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toDelivery);
  }

  async pruneEnded({ before, limit }: PruneBatch) {
    const ended = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '<>', 'pending')
      .where('finished_at', '<', before)
      .limit(limit);
    const gone = await this.db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', ended)
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  }
}
