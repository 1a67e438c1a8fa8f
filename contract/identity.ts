import { z } from 'zod';

/** Extension: whom a key acts for, and what answers: the console says it in its header. */
export const whoAmISchema = z.object({
  project: z
    .string()
    .meta({ description: "The API key's project: every job it sees is that one's" }),
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
