import type { WebhookEvent } from '../../contract';
import { toJobListItem } from '../http/presenters';
import type { EventRenderer } from '../jobs/webhooks';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The JSON a webhook receives. The job is the list's row (what the event stream sends): its
 * command and environment never leave the service, so no sensitive value can be in a payload.
 */
export const webhookEvents: EventRenderer = {
  change({ job, transition }) {
    const event: WebhookEvent = {
      type: `job.${transition.to}`,
      timestamp: iso(transition.at),
      data: {
        // Read after the change, maybe after later ones: the state is the one this event entered.
        job: { ...toJobListItem(job), state: transition.to, updated_at: iso(transition.at) },
        from_state: transition.from,
        to_state: transition.to,
        note: transition.note,
      },
    };
    return JSON.stringify(event);
  },
  test(webhookId, at) {
    const event: WebhookEvent = {
      type: 'webhook.test',
      timestamp: iso(at),
      data: { webhook_id: webhookId, message: 'A test event from Jobdeck: this webhook works.' },
    };
    return JSON.stringify(event);
  },
};
