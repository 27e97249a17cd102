import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { viewEvents } from './events.js';
import { viewRoutes } from './routes.js';
import { viewItemsPageSchema, viewSchemas } from './schema.js';

export const viewsFamily = collectionFamily({
  name: 'views',
  about:
    "Saved views: named queries of the query language on the issues, outcomes or decisions list, shared by the workspace; running one answers that list's page.",
  routes: viewRoutes,
  events: viewEvents,
  resourceType: 'view',
  schema: viewSchemas.item,
  schemas: standardComponents(viewSchemas, { responses: { SavedViewItemsPage: viewItemsPageSchema } }),
  collection: {
    name: 'views',
    table: 'views',
    definition: {
      filters: ['resource'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: viewSchemas.create,
    // createdBy is kept as the file has it and not checked: whoever saved a view may have left.
    references: [],
  },
});
