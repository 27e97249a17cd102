import { collectionFamily } from '../collection-family.js';
import { timeEntryEvents } from './events.js';
import { timeEntryRoutes } from './routes.js';
import {
  timeEntryCreateSchema,
  timeEntryPageSchema,
  timeEntryPatchSchema,
  timeEntrySchema,
} from './schema.js';

export const timeEntriesFamily = collectionFamily({
  name: 'time-entries',
  about: 'Minutes spent on an outcome, on a day, optionally on one of its issues.',
  routes: timeEntryRoutes,
  events: timeEntryEvents,
  resourceType: 'time_entry',
  schema: timeEntrySchema,
  schemas: {
    responses: {
      TimeEntry: timeEntrySchema,
      TimeEntryPage: timeEntryPageSchema,
    },
    requests: {
      TimeEntryCreate: timeEntryCreateSchema,
      TimeEntryPatch: timeEntryPatchSchema,
    },
  },
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
    createSchema: timeEntryCreateSchema,
    references: [
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'issueId', family: 'issues' },
      { field: 'userId', family: 'members' },
    ],
  },
});
