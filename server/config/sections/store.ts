import { z } from 'zod';
import { positiveInt } from './fields';

/** Where `store.url` comes from when the file leaves it out (so a password can stay out of it). */
export const DATABASE_URL_VARIABLE = 'JOBDECK_DATABASE_URL';

const storeSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      type: z.literal('sqlite').describe('The embedded store: one SQLite file'),
      path: z.string().min(1).default('jobdeck.sqlite').describe('The file, relative to data_dir'),
    }),
    z.strictObject({
      type: z
        .literal('postgres')
        .describe('A PostgreSQL database, which several instances can share'),
      url: z
        .string({ error: `missing: set store.url or the ${DATABASE_URL_VARIABLE} variable` })
        .regex(
          /^postgres(ql)?:\/\//,
          `must be a postgres:// or postgresql:// URL (from store.url or ${DATABASE_URL_VARIABLE})`,
        )
        .describe(
          `postgresql://user:password@host/db; without it in the file, ${DATABASE_URL_VARIABLE} gives it (no password in the file)`,
        ),
      pool_size: positiveInt.default(10).describe('Connections to PostgreSQL at most, per process'),
    }),
  ],
  { error: 'must be sqlite or postgres' },
);

export const storeSection = storeSchema
  .prefault({ type: 'sqlite' })
  .describe('Where jobs are stored: the embedded SQLite file, or PostgreSQL');
