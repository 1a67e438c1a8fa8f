import { z } from 'zod';
import { plainText, wellFormed } from './text';

/**
 * Extension: views of the jobs table (its filters, columns and sort, as the query string of its
 * URL) saved under a name and shared by the project's keys.
 */
export const VIEW_LIMITS = { nameMaxLength: 64, searchMaxLength: 2000, perProject: 100 };

const NAME_MESSAGE = `must be 1 to ${VIEW_LIMITS.nameMaxLength} characters, without control characters`;

/** 1 to 64 characters, none a control character, no space at either end: the document's pattern. */
const VIEW_NAME =
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  /^(?:[^\s\u0000-\u001f\u007f]|[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f])$/;

export const viewNameSchema = z
  .string()
  .min(1, NAME_MESSAGE)
  .max(VIEW_LIMITS.nameMaxLength, NAME_MESSAGE)
  // The narrower reason first: the message says the one that applies.
  .refine((name) => name.trim() === name, {
    message: 'must not begin or end with spaces',
    abort: true,
  })
  .regex(VIEW_NAME, NAME_MESSAGE)
  .refine(...wellFormed);

/** `/views/{name}`: checked like a field, and so documented. */
export const viewPathSchema = z.object({
  name: viewNameSchema.meta({ description: 'The view’s name' }),
});

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
    search: plainText(
      z
        .string({ error: 'must be a string' })
        .max(
          VIEW_LIMITS.searchMaxLength,
          `must be at most ${VIEW_LIMITS.searchMaxLength} characters`,
        ),
    ),
  },
  { error: 'body must be a JSON object like { "search": "state=failed&label=team=data" }' },
);
export type SaveViewRequest = z.infer<typeof saveViewSchema>;
