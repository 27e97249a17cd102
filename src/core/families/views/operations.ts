import type { SavedView } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { applyChanges } from '../shared/update.js';
import { viewEvents } from './events.js';
import { checkViewQuery } from './query-check.js';
import { runView } from './run.js';
import type { ViewCreate, ViewItemsQuery, ViewListQuery, ViewPatch } from './schema.js';

export type SavedViewView = ReturnType<typeof present<SavedView>>;
export const presentView = (view: SavedView): SavedViewView => present(view);

const announced = { resourceType: 'view', present: presentView };

/** Saves a view for the whole workspace, once its query is one its resource's list takes. */
export async function createView(ctx: OperationContext, input: ViewCreate): Promise<SavedViewView> {
  await checkViewQuery(ctx, input.resource, input.query);
  const view: SavedView = {
    id: ctx.ids.id('view'),
    workspaceId: ctx.tenant.workspaceId,
    name: input.name,
    resource: input.resource,
    query: input.query,
    createdBy: ctx.tenant.actor.userId,
    ...firstVersion(ctx),
  };
  return insertAndAnnounce(ctx, 'views', view, { type: viewEvents.created, resourceType: 'view' });
}

export async function getView(ctx: OperationContext, id: string): Promise<SavedViewView> {
  return presentView(await getOr404(ctx, 'views', id, 'view'));
}

export async function listViews(ctx: OperationContext, query: ViewListQuery): Promise<Page<SavedViewView>> {
  const { where, params } = splitFilters(query, ['resource']);
  return listPage(ctx, 'views', params, where, presentView);
}

/**
 * Renames a view or changes what it lists. A new query, or a new resource for the query it has,
 * is checked against that resource's list as a create's is.
 */
export async function updateView(
  ctx: OperationContext,
  id: string,
  patch: ViewPatch,
): Promise<SavedViewView> {
  const current = await getForWrite(ctx, 'views', id, 'view');
  const resource = patch.resource ?? current.resource;
  const query = patch.query ?? current.query;
  if (resource !== current.resource || query !== current.query) await checkViewQuery(ctx, resource, query);
  const { row } = await applyChanges(ctx, 'views', current, patch as Partial<SavedView>, {
    type: viewEvents.updated,
    ...announced,
  });
  return presentView(row);
}

export async function deleteView(ctx: OperationContext, id: string): Promise<void> {
  const view = await getForWrite(ctx, 'views', id, 'view');
  await deleteAndAnnounce(ctx, 'views', view, { type: viewEvents.deleted, ...announced });
}

/** One page of what the view lists (see runView); 404 for a view not of this workspace. */
export async function listViewItems(
  ctx: OperationContext,
  id: string,
  page: ViewItemsQuery,
): Promise<Page<unknown>> {
  return runView(ctx, await getOr404(ctx, 'views', id, 'view'), page);
}
