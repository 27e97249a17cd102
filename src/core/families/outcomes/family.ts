import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { outcomeEvents } from './events.js';
import { outcomeRoutes } from './routes.js';
import { outcomeCreateSchema, outcomePageSchema, outcomePatchSchema, outcomeSchema } from './schema.js';
import { outcomeSummarySchema } from './summary.js';

export const outcomesFamily = defineFamily({
  name: 'outcomes',
  routes: outcomeRoutes,
  about: 'The results a project works towards; issues, decisions and time entries may name one.',
  events: outcomeEvents,
  eventObject: { prefix: 'outcome', schema: outcomeSchema },
  schemas: {
    responses: {
      Outcome: outcomeSchema,
      OutcomePage: outcomePageSchema,
      OutcomeSummary: outcomeSummarySchema,
    },
    requests: {
      OutcomeCreate: outcomeCreateSchema,
      OutcomePatch: outcomePatchSchema,
    },
  },
  collection: {
    name: 'outcomes',
    table: 'outcomes',
    definition: {
      filters: ['projectId', 'status', 'ownerId', 'archivedAt'],
      search: ['title', 'description'],
      ranges: ['dueDate'],
      sums: [],
      notNull: ['archivedAt'],
      sorts: ['dueDate', 'updatedAt', 'title'],
    },
  },
  transfer: collectionTransfer({
    collection: 'outcomes',
    schema: outcomeSchema,
    createSchema: outcomeCreateSchema,
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'ownerId', family: 'members' },
    ],
    created: outcomeEvents.created,
    resourceType: 'outcome',
  }),
});
