import type { SavedView, ViewResource } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { listDecisions } from '../decisions/operations.js';
import { decisionListQuerySchema } from '../decisions/schema.js';
import { listIssues } from '../issues/operations.js';
import { issueListQuerySchema } from '../issues/schema.js';
import { listOutcomes } from '../outcomes/operations.js';
import { outcomeListQuerySchema } from '../outcomes/schema.js';
import type { ViewItemsQuery } from './schema.js';

/**
 * Each resource's own list, given its parameters as `GET /<resource>?query=…` parses them: a view
 * is run by the list itself, so its page, its total and its cursors are the list's.
 */
const lists: Record<
  ViewResource,
  (ctx: OperationContext, query: string, page: ViewItemsQuery) => Promise<Page<unknown>>
> = {
  issues: (ctx, query, page) => listIssues(ctx, { ...issueListQuerySchema.parse({ query }), ...page }),
  outcomes: (ctx, query, page) => listOutcomes(ctx, { ...outcomeListQuerySchema.parse({ query }), ...page }),
  decisions: (ctx, query, page) =>
    listDecisions(ctx, { ...decisionListQuerySchema.parse({ query }), ...page }),
};

/**
 * One page of what the view lists: what its resource's list answers with `query=<view.query>`,
 * `limit` and `cursor` and every other parameter at its default. A cursor of either pages the other.
 */
export function runView(
  ctx: OperationContext,
  view: SavedView,
  page: ViewItemsQuery,
): Promise<Page<unknown>> {
  return lists[view.resource](ctx, view.query, page);
}
