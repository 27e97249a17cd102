import { collectionFamily } from '../collection-family.js';
import { viewEvents } from './events.js';
import { viewRoutes } from './routes.js';
import {
  viewCreateSchema,
  viewItemsPageSchema,
  viewPageSchema,
  viewPatchSchema,
  viewSchema,
} from './schema.js';

export const viewsFamily = collectionFamily({
  name: 'views',
  about:
    "Saved views: named queries of the query language on the issues, outcomes or decisions list, shared by the workspace; running one answers that list's page.",
  routes: viewRoutes,
  events: viewEvents,
  resourceType: 'view',
  schema: viewSchema,
  schemas: {
    responses: {
      SavedView: viewSchema,
      SavedViewPage: viewPageSchema,
      SavedViewItemsPage: viewItemsPageSchema,
    },
    requests: {
      SavedViewCreate: viewCreateSchema,
      SavedViewPatch: viewPatchSchema,
    },
  },
  collection: {
    name: 'views',
    table: 'views',
    definition: {
      filters: ['resource'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: viewCreateSchema,
    // createdBy is kept as the file has it and not checked: whoever saved a view may have left.
    references: [],
  },
});
