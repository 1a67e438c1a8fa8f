import { z } from 'zod';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../contract';
import { authSection } from './sections/auth';
import { engineSection } from './sections/engine';
import { identifier, positiveInt } from './sections/fields';
import {
  eventsSection,
  httpTimeoutsSection,
  metricsSection,
  trustedProxiesSection,
} from './sections/http';
import { idempotencySection, jobDefaultsSection, jobOutputSection } from './sections/jobs';
import { projectSchema } from './sections/projects';
import { auditSection, retentionSection } from './sections/retention';
import { storeSection } from './sections/store';
import { webhooksSection } from './sections/webhooks';

export type { AuthConfig } from './sections/auth';
export { DEFAULT_DOCKER_SOCKET, type EngineConfig } from './sections/engine';
export { DEFAULT_KEEP_FINISHED } from './sections/fields';
export { DEFAULT_KEPT_OUTPUT_BYTES } from './sections/jobs';
export { DATABASE_URL_VARIABLE } from './sections/store';

/** A key for AES-256-GCM, as `openssl rand -base64 32` prints one. */
const secretKey = z
  .string()
  .refine(
    (text) =>
      /^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()) && Buffer.from(text, 'base64').length === 32,
    'must be base64 of 32 random bytes (openssl rand -base64 32)',
  );

/**
 * The whole configuration: each section's keys, defaults and checks are in its module under
 * sections/; this holds the top-level keys and the checks across sections. Every key says what
 * it is (.describe): docs/configuration.md's reference is generated from it.
 */
export const configSchema = z
  .strictObject({
    host: z.string().default('127.0.0.1').describe('Where the API and the console listen'),
    port: z.number().int().min(0).max(65535).default(8080).describe("The API's port"),
    console_port: z.number().int().min(0).max(65535).default(8081).describe("The console's port"),
    console_hosts: z
      .array(z.string())
      .default([])
      .describe(
        'Host names the console answers to besides loopback names and `host` (others get 421: the DNS-rebinding guard)',
      ),
    data_dir: z
      .string()
      .default('./data')
      .describe(
        'The SQLite file (default store), the secret key file and the console key file, relative to the config file',
      ),
    engine: engineSection,
    job_defaults: jobDefaultsSection,
    reconcile_interval_seconds: z
      .number()
      .positive()
      .max(60)
      .default(2)
      .describe(
        'How often every unfinished job is compared with the engine, the engine pinged and the heartbeat beaten',
      ),
    usage_sample_interval_seconds: z
      .number()
      .min(0)
      .max(300)
      .default(5)
      .describe(
        "How often each running job's memory and CPU are read from the engine (one request per job); 0 turns usage off",
      ),
    instance_timeout_seconds: z
      .number()
      .positive()
      .default(15)
      .describe(
        'How long an instance sharing the store may stay silent before another takes over its jobs (at least 3 × the interval)',
      ),
    fair_share: z
      .strictObject({
        half_life_seconds: positiveInt
          .default(3600)
          .describe(
            "How fast a project's past use is forgotten: a job that ended this long ago counts half as much in its share (docs/guides/fair-share.md)",
          ),
      })
      .prefault({})
      .describe('How capacity is shared between projects and between the queues of a project'),
    max_running: positiveInt
      .default(16)
      .describe('Containers at once on this service, across queues'),
    log_tail_bytes: positiveInt
      .default(64 * 1024)
      .describe("The most one logs answer returns of a running job's output (its newest bytes)"),
    job_output: jobOutputSection,
    idempotency: idempotencySection,
    retention: retentionSection,
    audit: auditSection,
    webhooks: webhooksSection,
    auth: authSection,
    body_limit_bytes: positiveInt
      .default(DEFAULT_BODY_LIMIT_BYTES)
      .describe('Request body limit (413 past it)'),
    rate_limit_per_minute: z
      .number()
      .int()
      .min(0)
      .default(1200)
      .describe('Requests per minute per API key; 0 turns the limit off'),
    auth_failures_per_minute: z
      .number()
      .int()
      .min(0)
      .default(30)
      .describe(
        'Failed authentications per minute per client address before 429; 0 turns the limit off',
      ),
    trusted_proxies: trustedProxiesSection,
    http_timeouts: httpTimeoutsSection,
    extensions: z
      .boolean()
      .default(true)
      .describe(
        "Jobdeck's extensions under /v1/client and the OpenAPI document; false leaves the spec's three operations only",
      ),
    events: eventsSection,
    metrics: metricsSection,
    secret_key: secretKey
      .optional()
      .describe(
        'Base64 of 32 bytes for AES-256-GCM; without it a 0600 key file in data_dir is generated',
      ),
    retired_secret_keys: z
      .array(secretKey)
      .default([])
      .describe(
        'Earlier secret keys (base64): they open what they sealed, never seal (see rotation)',
      ),
    container_labels: z
      .record(z.string(), z.string())
      .default({})
      .describe("Extra labels on every job container (ownership, cost); Jobdeck's own labels win"),
    log_level: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('The log level; debug adds a line per request'),
    projects: z
      .record(identifier, projectSchema)
      .describe('Projects by code: each has its queues and definitions, and its own API keys'),
    store: storeSection,
  })
  .refine((config) => config.instance_timeout_seconds >= 3 * config.reconcile_interval_seconds, {
    path: ['instance_timeout_seconds'],
    message:
      'must be at least 3 × reconcile_interval_seconds (an instance beats once per interval; fewer beats would make live instances look lost)',
  })
  .superRefine((config, context) => {
    const { oidc, public_url } = config.auth;
    if (oidc && !public_url) {
      context.addIssue({
        code: 'custom',
        path: ['auth', 'public_url'],
        message:
          'must be set with auth.oidc: the provider sends the browser back to <public_url>/v1/auth/oidc/callback',
      });
    }
    for (const [group, grants] of Object.entries(oidc?.group_roles ?? {})) {
      grants.forEach(({ project }, index) => {
        if (config.projects[project]) return;
        context.addIssue({
          code: 'custom',
          path: ['auth', 'oidc', 'group_roles', group, index, 'project'],
          message: `no project "${project}" in the configuration`,
        });
      });
    }
    for (const [code, project] of Object.entries(config.projects)) {
      for (const [name, queue] of Object.entries(project.queues)) {
        if (queue.partition === undefined || config.engine.type === 'slurm') continue;
        context.addIssue({
          code: 'custom',
          path: ['projects', code, 'queues', name, 'partition'],
          message: `names a Slurm partition, which only engine.type slurm has (this engine is ${config.engine.type})`,
        });
      }
      for (const [name, schedule] of Object.entries(project.schedules)) {
        for (const field of ['job_definition', 'job_queue'] as const) {
          if (!schedule[field].startsWith(`${code}::`)) {
            context.addIssue({
              code: 'custom',
              path: ['projects', code, 'schedules', name, field],
              message: `must be of project "${code}" (start with ${code}::)`,
            });
          }
        }
      }
    }
  });

export type JobdeckConfig = z.infer<typeof configSchema>;
