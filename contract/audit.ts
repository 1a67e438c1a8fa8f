import { z } from 'zod';
import { defineOperations, errors, ok } from './operation';
import { issuedCursorSchema } from './job';

/**
 * Extension: the audit trail. Every change a person or a key makes to a project (and every
 * sign-in, failed ones included) is recorded once it succeeded: who, from where, what, on what.
 */
export const AUDIT_ACTIONS = [
  'job.submit',
  'job.cancel',
  'job.resubmit',
  'job.exec',
  'job.preempt',
  'bulk.start',
  'bulk.stop',
  'queue.pause',
  'queue.resume',
  'queue.max_running',
  'schedule.pause',
  'schedule.resume',
  'view.save',
  'view.delete',
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.test',
  'key.create',
  'key.revoke',
  'member.add',
  'member.update',
  'member.remove',
  'user.sign_in',
  'user.sign_in_failed',
  'user.sign_out',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_LIMITS = { defaultLimit: 50, maxLimit: 200, textMaxLength: 200 };

const timestamp = z.iso.datetime({ offset: true });
const text = z.string().min(1, 'must not be empty').max(AUDIT_LIMITS.textMaxLength);

export const auditActionSchema = z.enum(AUDIT_ACTIONS, {
  error: 'must be one of the audit actions (docs/guides/audit.md)',
});

export const auditQuerySchema = z.strictObject({
  actor: text.optional().meta({ description: 'Only this actor: `key:<id>` or `user:<identity>`' }),
  action: auditActionSchema.optional(),
  target: text.optional().meta({ description: 'Only events about this (a job id, a queue, …)' }),
  since: timestamp.optional().meta({ description: 'Only events at or after this RFC 3339 time' }),
  until: timestamp.optional().meta({ description: 'Only events before this RFC 3339 time' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(AUDIT_LIMITS.maxLimit)
    .default(AUDIT_LIMITS.defaultLimit),
  cursor: issuedCursorSchema.optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEventSchema = z.object({
  id: z.string(),
  at: timestamp,
  actor: z.string().meta({ description: '`key:<id>`, `user:<identity>`, or what a sign-in named' }),
  address: z.string().meta({ description: 'The client address the request came from' }),
  action: auditActionSchema,
  target: z
    .string()
    .nullable()
    .meta({ description: 'What it acted on: a job id, a queue, a webhook id, a key id, …' }),
  detail: z
    .record(z.string(), z.unknown())
    .meta({ description: 'What else says what it did (never a secret: no env value, no key)' }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEventSchema),
  next_cursor: z
    .string()
    .nullable()
    .meta({ description: 'Older events: pass it as `cursor`; null when this page was the last' }),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditOperations = defineOperations({
  listAuditEvents: {
    id: 'listAuditEvents',
    method: 'get',
    path: '/v1/client/audit',
    role: 'admin',
    summary:
      "The project's audit trail, newest first: who submitted, cancelled or changed what, when and from where (extension)",
    query: auditQuerySchema,
    answers: {
      200: ok(auditPageSchema.meta({ id: 'AuditPage' }), 'Newest first'),
      ...errors(400, 401, 429),
    },
  },
});
