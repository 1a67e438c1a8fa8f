import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  VIEW_LIMITS,
  saveViewSchema,
  viewPathSchema,
  type SavedView,
  viewOperations,
} from '../../../contract';
import { operationRoute } from '../operation-route';
import type { SavedViewRecord, ViewStore } from '../../store/ports';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { parseBodyOrThrow, parseOrThrow } from '../parse';

type ViewRequest = FastifyRequest<{ Params: { name: string } }>;

const toSavedView = (view: SavedViewRecord): SavedView => ({
  name: view.name,
  search: view.search,
  created_by: view.createdBy,
  saved_at: new Date(view.savedAt).toISOString(),
});

const viewName = (request: ViewRequest) => parseOrThrow(viewPathSchema, request.params).name;

/** Extension: the jobs table's views a project shares (the console's "Views" menu). */
export function viewRoutes(app: FastifyInstance, views: ViewStore): void {
  operationRoute(app, viewOperations.listViews, async (request) => {
    const items = await views.list(principalOf(request).project);
    return { ok: true, data: { items: items.map(toSavedView) } };
  });

  operationRoute(app, viewOperations.saveView, async (request: ViewRequest) => {
    const name = viewName(request);
    const { search } = parseBodyOrThrow(saveViewSchema, request.body);
    const { project, actor } = principalOf(request);
    const view = { name, search, createdBy: actor, savedAt: Date.now() };
    const { saved } = await views.save(project, view, VIEW_LIMITS.perProject);
    if (!saved) {
      throw new HttpError(
        409,
        `name: this project already shares ${VIEW_LIMITS.perProject} views; delete one first`,
      );
    }
    audit(request, 'view.save', name, { search });
    return { ok: true, data: toSavedView(view) };
  });

  operationRoute(app, viewOperations.deleteView, async (request: ViewRequest) => {
    const name = viewName(request);
    if (!(await views.remove(principalOf(request).project, name))) {
      throw new HttpError(404, `name: no view "${name}" in this project`);
    }
    audit(request, 'view.delete', name);
    return { ok: true };
  });
}
