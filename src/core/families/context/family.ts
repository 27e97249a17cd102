import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { contextEvents } from './events.js';
import { contextRoutes } from './routes.js';
import { contextSchemas } from './schema.js';

export const contextFamily = collectionFamily({
  name: 'context',
  about: 'Documents, links and notes kept with the work.',
  routes: contextRoutes,
  events: contextEvents,
  resourceType: 'context',
  schema: contextSchemas.item,
  schemas: standardComponents(contextSchemas),
  collection: {
    name: 'context',
    table: 'context_items',
    definition: {
      filters: ['outcomeId', 'kind'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: contextSchemas.create,
    references: [{ field: 'outcomeId', family: 'outcomes' }],
  },
});
