import type { JobState, LabelSelector } from '../../contract';

/** A project's webhook: where its jobs' state changes are told, and which. */
export interface WebhookRecord {
  id: string;
  project: string;
  url: string;
  description: string;
  states: JobState[];
  /** Empty: every queue. */
  queues: string[];
  /** Jobs with every one of these labels; empty: any job. */
  labels: LabelSelector[];
  /** The signing secret, sealed by the SecretBox. */
  sealedSecret: string;
  /** Changes up to this seq happened before it existed: they never fire it. */
  fromSeq: number;
  createdBy: string;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event for one webhook, tried until a 2xx comes back or the attempts run out. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventType: string;
  jobId: string | null;
  /** The request body, as every attempt sends it. */
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: number;
  /** Until when a courier holds it (0: none). */
  leaseUntil: number;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/** A delivery as a courier claimed it, with what sending needs. */
export interface ClaimedDelivery extends DeliveryRecord {
  url: string;
  sealedSecret: string;
}

/** How one attempt went. */
export interface AttemptOutcome {
  status: number | null;
  latencyMs: number | null;
  error: string | null;
}
