import type { SeqPage } from './job-store';
import type { PruneBatch } from './retention';
import type { JobState } from '../../../contract';
import type { JobChange } from '../model';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryRecord,
  DeliveryState,
  WebhookRecord,
} from '../webhook-records';

/** Webhooks, the state changes read for them, and their deliveries, shared by every instance. */
export interface WebhookStore {
  /**
   * Stores it unless its project already has `atMost` webhooks (false then): the count and the
   * insert are one step, however many creates run at once on any instance.
   */
  create(webhook: WebhookRecord, atMost: number): Promise<boolean>;
  /** Every project's webhooks (`project` given: that project's), oldest first. */
  list(project?: string): Promise<WebhookRecord[]>;
  /** Deletes it and its deliveries; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Changes what fires it and where it goes; false when there is none. */
  update(id: string, changes: WebhookChanges): Promise<boolean>;
  /** Replaces its sealed secret, only if it is still the text read (`secrets rotate`). */
  replaceSecret(params: ReplaceSecretParams): Promise<boolean>;
  /** How far the state changes were read for webhooks; created at `initial` the first time. */
  cursor(initial: number): Promise<number>;
  /**
   * The state changes after `afterSeq` up to `uptoSeq` into one of `states`, oldest first, every
   * project's, at most `limit`.
   */
  changesInto(params: ChangesIntoParams): Promise<JobChange[]>;
  /**
   * Moves the cursor from `fromSeq` to `toSeq` and stores the deliveries, in one transaction;
   * false, storing nothing, when the cursor was no longer at `fromSeq` (another instance read).
   */
  advance(params: AdvanceParams): Promise<boolean>;
  /** Stores one delivery (a test event). */
  enqueue(delivery: DeliveryRecord): Promise<void>;
  /**
   * Leases up to `limit` pending deliveries due by `now` that no courier holds, oldest first and
   * at most `perWebhook` held per webhook, counting an attempt on each: a courier that dies
   * mid-request leaves them to another after `leaseUntil`.
   */
  claimDue(params: ClaimDueParams): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempts the claims counted, in one transaction: each delivered, failed for good,
   * or pending again at its `nextAttemptAt`; one claimed again meanwhile is left alone. An attempt
   * that failed (pending, with an error) holds the webhook's other due deliveries back as long.
   */
  settle(settlements: Settlement[]): Promise<void>;
  /** When the earliest pending delivery falls due; undefined when none is pending. */
  nextDueAt(): Promise<number | undefined>;
  /** The webhook's latest deliveries, newest first. */
  deliveries(webhookId: string, limit: number): Promise<DeliveryRecord[]>;
  /** Deletes ended deliveries that ended before `before`; how many went. */
  pruneEnded(params: PruneBatch): Promise<number>;
}

/** What a person may change of a webhook. */
export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'url' | 'states' | 'queues' | 'labels' | 'description'>
>;

/** How one claimed attempt of a delivery went, to be recorded. */
export interface Settlement {
  delivery: Pick<DeliveryRecord, 'id' | 'attempts' | 'webhookId'>;
  outcome: AttemptOutcome & { state: DeliveryState; nextAttemptAt: number; now: number };
}

/** Sends one signed webhook request (the adapter: outbound HTTP). */
export interface WebhookSender {
  send(request: {
    url: string;
    id: string;
    body: string;
    secret: string;
    timeoutMs: number;
    /** Aborted when the instance stops: the attempt is given back, not counted as failed. */
    signal: AbortSignal;
  }): Promise<AttemptOutcome & { delivered: boolean }>;
}

export interface ReplaceSecretParams {
  id: string;
  readSealed: string;
  sealed: string;
}

export type ChangesIntoParams = SeqPage & { states: readonly JobState[]; uptoSeq: number };

export interface AdvanceParams {
  fromSeq: number;
  toSeq: number;
  deliveries: DeliveryRecord[];
}

export interface ClaimDueParams {
  now: number;
  leaseUntil: number;
  limit: number;
  perWebhook: number;
}
