import { randomBytes } from 'node:crypto';
import { v7 as timeOrderedUuid } from 'uuid';
import { WEBHOOK_LIMITS, matchesLabel, type JobState, type LabelSelector } from '../../contract';
import type { Catalog } from './catalog';
import { JobRequestError, conflict, invalid } from './errors';
import type { JobChange } from './model';
import type { DeliveryRecord, WebhookRecord } from './webhook-records';
import type { JobStore, SecretBox, WebhookChanges, WebhookStore } from './ports';

export interface NewWebhook {
  url: string;
  states: JobState[];
  queues: string[];
  labels: LabelSelector[];
  description: string;
}

/** The body of a request, from what happened (the wire format is the HTTP layer's). */
export interface EventRenderer {
  change(change: JobChange): string;
  test(webhookId: string, at: number): string;
}

/**
 * Why webhooks may not reach a URL's host (config: allowed_hosts; an internal address), or
 * undefined when they may.
 */
export type HostPolicy = (hostname: string) => string | undefined;

export const notFoundWebhook = (id: string) =>
  new JobRequestError('not-found', `id: no webhook "${id}" in this project`);

/** A change fires a webhook when its project, state, queue and labels are the webhook's. */
export function fires(webhook: WebhookRecord, { seq, job, transition }: JobChange): boolean {
  return (
    seq > webhook.fromSeq &&
    job.project === webhook.project &&
    webhook.states.includes(transition.to) &&
    (webhook.queues.length === 0 || webhook.queues.includes(job.queue)) &&
    webhook.labels.every((selector) => matchesLabel(job.labels, selector))
  );
}

export function newDelivery(
  webhookId: string,
  event: { type: string; jobId: string | null; payload: string },
  now: number,
): DeliveryRecord {
  return {
    id: timeOrderedUuid(),
    webhookId,
    eventType: event.type,
    jobId: event.jobId,
    payload: event.payload,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: 0,
    lastStatus: null,
    lastLatencyMs: null,
    lastError: null,
    createdAt: now,
    finishedAt: null,
  };
}

/** Standard Webhooks' secret format: `whsec_` and the key in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A project's webhooks as people manage them: created (the secret shown once), listed, tested. */
export class Webhooks {
  constructor(
    private readonly deps: {
      webhooks: WebhookStore;
      store: JobStore;
      catalog: Catalog;
      secrets: SecretBox;
      render: EventRenderer;
      refusesHost: HostPolicy;
      /** Tells the couriers that a delivery is due now. */
      kick: () => void;
      /** Tells the relay that a webhook exists, so that it follows the changes. */
      follow: () => void;
    },
  ) {}

  /** Where it may go and what it may name: the configuration's hosts, the project's queues. */
  private check(project: string, fields: WebhookChanges): void {
    const refused = fields.url && this.deps.refusesHost(new URL(fields.url).hostname);
    if (refused) throw invalid(`url: ${refused}`);
    for (const queue of fields.queues ?? []) {
      if (this.deps.catalog.queue(queue)?.project !== project) {
        throw invalid(`queues: no queue "${queue}" in this project`);
      }
    }
  }

  async create(
    project: string,
    createdBy: string,
    request: NewWebhook,
  ): Promise<{ webhook: WebhookRecord; secret: string }> {
    this.check(project, request);
    const secret = newSecret();
    const webhook: WebhookRecord = {
      id: timeOrderedUuid(),
      project,
      ...request,
      sealedSecret: this.deps.secrets.seal(secret),
      // Only what happens from now on fires it.
      fromSeq: await this.deps.store.lastChangeSeq(),
      createdBy,
      createdAt: Date.now(),
    };
    if (!(await this.deps.webhooks.create(webhook, WEBHOOK_LIMITS.perProject))) {
      throw conflict(
        `the project already has ${WEBHOOK_LIMITS.perProject} webhooks: delete one first`,
      );
    }
    this.deps.follow();
    return { webhook, secret };
  }

  list(project: string): Promise<WebhookRecord[]> {
    return this.deps.webhooks.list(project);
  }

  async get(project: string, id: string): Promise<WebhookRecord> {
    const webhook = (await this.list(project)).find((w) => w.id === id);
    if (!webhook) throw notFoundWebhook(id);
    return webhook;
  }

  /**
   * Changes what fires it and where it goes; its secret stays. Deliveries not yet sent go to the
   * new URL; changes already read were matched with what it was.
   */
  async update(project: string, id: string, changes: WebhookChanges): Promise<WebhookRecord> {
    const webhook = await this.get(project, id);
    this.check(project, changes);
    await this.deps.webhooks.update(id, changes);
    return { ...webhook, ...changes };
  }

  async remove(project: string, id: string): Promise<void> {
    await this.get(project, id);
    await this.deps.webhooks.remove(id);
  }

  /** Sends a `webhook.test` event: what a receiver sees, signed the same way. */
  async test(project: string, id: string): Promise<DeliveryRecord> {
    await this.get(project, id);
    const now = Date.now();
    const delivery = newDelivery(
      id,
      { type: 'webhook.test', jobId: null, payload: this.deps.render.test(id, now) },
      now,
    );
    await this.deps.webhooks.enqueue(delivery);
    this.deps.kick();
    return delivery;
  }

  async deliveries(project: string, id: string): Promise<DeliveryRecord[]> {
    await this.get(project, id);
    return this.deps.webhooks.deliveries(id, WEBHOOK_LIMITS.deliveriesListed);
  }
}
