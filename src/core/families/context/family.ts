import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { contextEvents } from './events.js';
import { contextRoutes } from './routes.js';
import { contextCreateSchema, contextItemSchema, contextPageSchema } from './schema.js';

export const contextFamily = defineFamily({
  name: 'context',
  routes: contextRoutes,
  about: 'Documents, links and notes kept with the work.',
  events: contextEvents,
  eventObject: { prefix: 'context', schema: contextItemSchema },
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
      search: [],
      ranges: [],
      sums: [],
      notNull: [],
      sorts: ['updatedAt'],
    },
  },
  transfer: collectionTransfer({
    collection: 'context',
    schema: contextItemSchema,
    createSchema: contextCreateSchema,
    references: [{ field: 'outcomeId', family: 'outcomes' }],
    created: contextEvents.created,
    resourceType: 'context',
  }),
});
