import { defineRoute } from '../../pipeline/route.js';
import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { viewExamples } from './examples.js';
import { listViewItems } from './operations.js';
import { viewItemsPageSchema, viewItemsQuerySchema, viewSchemas } from './schema.js';

export const viewRoutes = [
  ...standardRoutes(viewSchemas, operations, {
    path: '/views',
    noun: 'saved view',
    get: storedItem('views', 'view'),
    operationIds: standardOperationIds('View', 'Views'),
    about: {
      list: 'Every saved view of the workspace, whoever saved it; narrow to one resource with `resource`.',
      create:
        "`query` is checked as the resource's list checks `query=`: a malformed term is 400 validation_failed naming the term and its offset, at the body's `query`. `createdBy` is the token's user.",
      update: 'A new `query`, or a new `resource` for the current query, is checked as a create checks it.',
    },
    examples: viewExamples,
  }),
  defineRoute({
    method: 'GET',
    path: '/views/:id/items',
    access: 'read',
    kind: 'read',
    operationId: 'listViewItems',
    summary: 'Run a saved view',
    description:
      "One page of what the view lists: exactly what `GET /<resource>?query=<query>` answers, with `limit` and `cursor` as that list takes them and its other parameters at their defaults (its order, archived items left out). Follow `nextCursor` (null on the last page); `total` counts every match. The query runs as it is now: a view never holds its results. A cursor of the resource's list with the same query pages this one, and the other way round.",
    examples: { response: viewExamples.items },
    query: viewItemsQuerySchema,
    response: viewItemsPageSchema,
    readsRow: 'views',
    handle: async (ctx, { params, query }) => ({
      status: 200,
      body: await listViewItems(ctx, params.id ?? '', query),
    }),
  }),
];
