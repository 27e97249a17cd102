import type { ContextItem } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import { firstVersion, getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { referenced } from '../shared/references.js';
import { contextEvents } from './events.js';
import type { ContextCreate, ContextListQuery } from './schema.js';

export type ContextView = ReturnType<typeof present<ContextItem>>;
export const presentContext = (item: ContextItem): ContextView => present(item);

export async function createContext(ctx: OperationContext, input: ContextCreate): Promise<ContextView> {
  await referenced(ctx, 'outcomes', input.outcomeId, 'outcomeId');
  const item: ContextItem = {
    id: ctx.ids.id('ctx'),
    workspaceId: ctx.tenant.workspaceId,
    outcomeId: input.outcomeId,
    kind: input.kind,
    title: input.title,
    url: input.kind === 'note' ? null : input.url,
    body: input.kind === 'note' ? input.body : null,
    ...firstVersion(ctx),
  };
  return insertAndAnnounce(ctx, 'context', item, {
    type: contextEvents.created,
    resourceType: 'context',
  });
}

export async function getContext(ctx: OperationContext, id: string): Promise<ContextView> {
  return presentContext(await getOr404(ctx, 'context', id, 'context item'));
}

export async function listContext(
  ctx: OperationContext,
  query: ContextListQuery,
): Promise<Page<ContextView>> {
  const { where, params } = splitFilters(query, ['outcomeId', 'kind']);
  return listPage(ctx, 'context', params, where, presentContext);
}

export async function deleteContext(ctx: OperationContext, id: string): Promise<void> {
  const item = await getForWrite(ctx, 'context', id, 'context item');
  await deleteAndAnnounce(ctx, 'context', item, {
    type: contextEvents.deleted,
    resourceType: 'context',
    present: presentContext,
  });
}
