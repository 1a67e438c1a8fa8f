import { z } from 'zod';
import { defineOperations, errors, ok } from './operation';
import { roleSchema } from './roles';

/** Extension: the container engine as the answering instance sees it. */
export const engineHealthSchema = z.object({
  reachable: z.boolean().meta({
    description:
      'Whether the engine answers the calls that start, watch and stop jobs (a ping alone is not enough)',
  }),
  unreachable_since: z.iso.datetime({ offset: true }).nullable().meta({
    description: 'Since when it has not answered (ISO 8601, UTC); null while it answers',
  }),
  dispatch: z.enum(['running', 'paused']).meta({
    description:
      'paused: no container is started; runnable jobs wait (their note says since when) and running ones are settled once the engine answers again',
  }),
});
export type EngineHealthStatus = z.infer<typeof engineHealthSchema>;

/** Extension: whom a key acts for, and what answers: the console says it in its header. */
export const whoAmISchema = z.object({
  project: z
    .string()
    .meta({ description: "The API key's project: every job it sees is that one's" }),
  role: roleSchema.meta({ description: 'What this key (or signed-in member) may do here' }),
  actor: z.string().meta({
    description: 'Who acts, as the audit trail names it: `key:<id>` or `user:<e-mail or subject>`',
  }),
  exec: z
    .object({
      enabled: z.boolean().meta({
        description:
          "Whether the project's configuration enables a command in its running jobs (`projects.<project>.exec: true`)",
      }),
      supported: z.boolean().meta({
        description: 'Whether the engine can run one (the local docker engine only)',
      }),
    })
    .optional()
    .meta({
      description:
        'Whether GET /v1/client/job/{job_id}/exec can open a terminal here (for an operator or admin, in a running job): both must be true. docs/guides/exec.md',
    }),
  service: z.object({
    name: z.literal('jobdeck'),
    version: z.string(),
    engine: z.string().meta({
      description:
        'Where jobs run: docker, swarm, or simulated (nothing runs: a capacity test, docs/engines.md)',
    }),
    engine_health: engineHealthSchema.optional(),
  }),
});
export type WhoAmI = z.infer<typeof whoAmISchema>;

export const identityOperations = defineOperations({
  whoAmI: {
    id: 'whoAmI',
    method: 'get',
    path: '/v1/client/whoami',
    role: 'viewer',
    summary: "The key's project and the service's version (extension)",
    answers: {
      200: ok(whoAmISchema.meta({ id: 'WhoAmI' }), 'Whom the key acts for'),
      ...errors(401, 429),
    },
  },
});
