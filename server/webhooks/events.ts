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
        job: toJobListItem(job),
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

/** `allowed_hosts` as a test: empty allows any host; `*.example.com` any of its subdomains. */
export function hostPolicy(allowed: readonly string[]): (hostname: string) => boolean {
  if (allowed.length === 0) return () => true;
  const patterns = allowed.map((host) => host.toLowerCase());
  return (hostname) => {
    const host = hostname.toLowerCase();
    return patterns.some((pattern) =>
      pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
    );
  };
}
