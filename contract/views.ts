import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
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

export const viewOperations = defineOperations({
  listViews: {
    id: 'listViews',
    method: 'get',
    path: '/v1/client/views',
    role: 'viewer',
    summary: "The jobs table's views the project shares, by name (extension)",
    answers: { 200: ok(savedViewsSchema, 'Views by name'), ...errors(401, 429) },
  },
  saveView: {
    id: 'saveView',
    method: 'put',
    path: '/v1/client/views/{name}',
    role: 'operator',
    summary: `Save (or replace) a view of the jobs table for the project, at most ${VIEW_LIMITS.perProject} (extension)`,
    params: viewPathSchema,
    body: jsonBody(saveViewSchema),
    answers: {
      200: ok(savedViewSchema.meta({ id: 'SavedView' }), 'The view as saved'),
      ...errors(400, 401, 429),
      409: failure(`The project already shares ${VIEW_LIMITS.perProject} views`),
    },
  },
  deleteView: {
    id: 'deleteView',
    method: 'delete',
    path: '/v1/client/views/{name}',
    role: 'operator',
    summary: 'Delete a view the project shares (extension)',
    params: viewPathSchema,
    answers: {
      200: json(acceptedBodySchema, 'Deleted'),
      ...errors(400, 401, 429),
      404: failure('No such view in this API key’s project'),
    },
  },
});
