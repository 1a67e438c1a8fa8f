import { z } from 'zod';
import { wellFormed, withoutNul } from './text';

/**
 * Extension: views of the jobs table (its filters, columns and sort, as the query string of its
 * URL) saved under a name and shared by the project's keys.
 */
export const VIEW_LIMITS = { nameMaxLength: 64, searchMaxLength: 2000, perProject: 100 };

const NAME_MESSAGE = `must be 1 to ${VIEW_LIMITS.nameMaxLength} characters, without control characters`;

export const viewNameSchema = z
  .string()
  .min(1, NAME_MESSAGE)
  .max(VIEW_LIMITS.nameMaxLength, NAME_MESSAGE)
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), NAME_MESSAGE)
  .refine((name) => name.trim() === name, 'must not begin or end with spaces')
  .refine(...wellFormed);

export const savedViewSchema = z.object({
  name: z.string(),
  search: z
    .string()
    .meta({ description: 'The jobs table’s query string: state=failed&label=team=data' }),
  created_by: z.string().meta({ description: 'The id of the API key that saved it' }),
  saved_at: z.string().meta({ description: 'RFC 3339' }),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewsSchema = z.object({ items: z.array(savedViewSchema) });

export const saveViewSchema = z.strictObject(
  {
    search: z
      .string({ error: 'must be a string' })
      .max(VIEW_LIMITS.searchMaxLength, `must be at most ${VIEW_LIMITS.searchMaxLength} characters`)
      .refine(...withoutNul)
      .refine(...wellFormed),
  },
  { error: 'body must be a JSON object like { "search": "state=failed&label=team=data" }' },
);
export type SaveViewRequest = z.infer<typeof saveViewSchema>;
