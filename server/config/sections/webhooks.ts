import { z } from 'zod';
import { positiveInt } from './fields';

export const webhooksSection = z
  .strictObject({
    allowed_hosts: z
      .array(
        z
          .string()
          .regex(
            /^(\*\.)?[A-Za-z0-9.:[\]-]+$/,
            'must be a host name or address, or *.domain for its subdomains',
          ),
      )
      .default([])
      .describe(
        'The hosts webhooks may be sent to, at any address (a name, an address, or *.example.com); empty: any host whose address is public (not loopback, private, link-local, site- or unique-local, multicast, reserved, nor such an IPv4 address carried in an IPv6 one)',
      ),
    timeout_seconds: positiveInt
      .max(60, 'must be at most 60')
      .default(10)
      .describe('How long a receiver has to answer one request'),
    max_attempts: positiveInt
      .max(20, 'must be at most 20')
      .default(8)
      .describe('Attempts per delivery, the first included, before it is given up'),
    first_retry_seconds: z
      .number()
      .positive()
      .max(3600, 'must be at most 3600')
      .default(5)
      .describe(
        'The wait before the second attempt; each later wait is three times the one before, at most 6 h',
      ),
    keep_deliveries_days: positiveInt
      .max(365, 'must be at most 365')
      .default(7)
      .describe('How long ended deliveries stay in the delivery log'),
    replay_max_age_hours: z
      .number()
      .positive()
      .max(8760, 'must be at most 8760')
      .default(24)
      .describe(
        "State changes older than this when the service reads them (webhooks were off a while: extensions off, every instance stopped) are not sent; each webhook's delivery log counts them in one webhook.skipped record",
      ),
  })
  .prefault({})
  .describe(
    'Webhooks (an extension): where they may go, and how hard a delivery is tried (docs/guides/webhooks.md)',
  );
