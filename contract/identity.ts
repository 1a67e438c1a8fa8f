import { z } from 'zod';
import { roleSchema } from './roles';

/** Extension: whom a key acts for, and what answers: the console says it in its header. */
export const whoAmISchema = z.object({
  project: z
    .string()
    .meta({ description: "The API key's project: every job it sees is that one's" }),
  role: roleSchema.meta({ description: 'What this key (or signed-in member) may do here' }),
  actor: z.string().meta({
    description: 'Who acts, as the audit trail names it: `key:<id>` or `user:<e-mail or subject>`',
  }),
  service: z.object({
    name: z.literal('jobdeck'),
    version: z.string(),
    engine: z.string().meta({
      description:
        'Where jobs run: docker, swarm, or simulated (nothing runs: a capacity test, docs/engines.md)',
    }),
  }),
});
export type WhoAmI = z.infer<typeof whoAmISchema>;
