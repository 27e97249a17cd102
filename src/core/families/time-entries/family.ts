import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { timeEntryEvents } from './events.js';
import { timeEntryRoutes } from './routes.js';
import { timeEntrySchemas } from './schema.js';

export const timeEntriesFamily = collectionFamily({
  name: 'time-entries',
  about: 'Minutes spent on an outcome, on a day, optionally on one of its issues.',
  routes: timeEntryRoutes,
  events: timeEntryEvents,
  resourceType: 'time_entry',
  schema: timeEntrySchemas.item,
  schemas: standardComponents(timeEntrySchemas),
  collection: {
    name: 'timeEntries',
    table: 'time_entries',
    definition: {
      filters: ['outcomeId', 'issueId', 'userId'],
      ranges: ['date'],
      sums: ['minutes'],
      sorts: ['date', 'minutes'],
    },
  },
  transfer: {
    createSchema: timeEntrySchemas.create,
    references: [
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'issueId', family: 'issues' },
      { field: 'userId', family: 'members' },
    ],
  },
});
