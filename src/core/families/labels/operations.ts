import type { OperationContext } from '../../pipeline/context.js';
import { decodePosition, encodePosition, invalidCursor, type Page } from '../../pipeline/pagination.js';
import type { LabelCount } from '../../port/index.js';
import type { LabelListQuery } from './schema.js';

/** What a labels cursor is bound to: nothing but the list itself (it has no filters). */
const filters = { name: 'labels' };

/** The name a cursor of the labels list carries: the last label of the page before. */
function afterName(cursor: string): string {
  const [name, extra] = decodePosition(cursor, filters);
  if (typeof name === 'string' && extra === undefined) return name;
  throw invalidCursor('The cursor is malformed.');
}

/**
 * One page of the workspace's labels in name order (code point order), each with the number of
 * issues carrying it, archived ones included: the total of `GET /issues?labels=<name>&archived=true`.
 */
export async function listLabels(ctx: OperationContext, query: LabelListQuery): Promise<Page<LabelCount>> {
  const { rows, total } = await ctx.tx.labels.list({
    workspaceId: ctx.tenant.workspaceId,
    limit: query.limit + 1,
    ...(query.cursor === undefined ? {} : { after: afterName(query.cursor) }),
  });
  const data = rows.slice(0, query.limit);
  const last = data.at(-1);
  return {
    data,
    nextCursor: rows.length > query.limit && last ? encodePosition([last.name], filters) : null,
    total,
  };
}
