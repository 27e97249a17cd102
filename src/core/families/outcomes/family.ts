import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { outcomeEvents } from './events.js';
import { outcomeRoutes } from './routes.js';
import { outcomeSchemas } from './schema.js';
import { outcomeSummarySchema } from './summary.js';

export const outcomesFamily = collectionFamily({
  name: 'outcomes',
  about: 'The results a project works towards; issues, decisions and time entries may name one.',
  routes: outcomeRoutes,
  events: outcomeEvents,
  resourceType: 'outcome',
  schema: outcomeSchemas.item,
  schemas: standardComponents(outcomeSchemas, { responses: { OutcomeSummary: outcomeSummarySchema } }),
  collection: {
    name: 'outcomes',
    table: 'outcomes',
    definition: {
      filters: ['projectId', 'status', 'ownerId', 'archivedAt'],
      search: ['title', 'description'],
      ranges: ['dueDate'],
      notNull: ['archivedAt'],
      sorts: ['dueDate', 'updatedAt', 'title'],
    },
  },
  transfer: {
    createSchema: outcomeSchemas.create,
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'ownerId', family: 'members' },
    ],
  },
});
