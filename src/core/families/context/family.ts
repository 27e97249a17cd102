import { collectionFamily } from '../collection-family.js';
import { contextEvents } from './events.js';
import { contextRoutes } from './routes.js';
import { contextCreateSchema, contextItemSchema, contextPageSchema } from './schema.js';

export const contextFamily = collectionFamily({
  name: 'context',
  about: 'Documents, links and notes kept with the work.',
  routes: contextRoutes,
  events: contextEvents,
  resourceType: 'context',
  schema: contextItemSchema,
  schemas: {
    responses: {
      ContextItem: contextItemSchema,
      ContextItemPage: contextPageSchema,
    },
    requests: {
      ContextItemCreate: contextCreateSchema,
    },
  },
  collection: {
    name: 'context',
    table: 'context_items',
    definition: {
      filters: ['outcomeId', 'kind'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: contextCreateSchema,
    references: [{ field: 'outcomeId', family: 'outcomes' }],
  },
});
