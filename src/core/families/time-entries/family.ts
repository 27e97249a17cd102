import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { timeEntryEvents } from './events.js';
import { timeEntryRoutes } from './routes.js';
import {
  timeEntryCreateSchema,
  timeEntryPageSchema,
  timeEntryPatchSchema,
  timeEntrySchema,
} from './schema.js';

export const timeEntriesFamily = defineFamily({
  name: 'time-entries',
  routes: timeEntryRoutes,
  about: 'Minutes spent on an outcome, on a day, optionally on one of its issues.',
  events: timeEntryEvents,
  eventObject: { prefix: 'time_entry', schema: timeEntrySchema },
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
      search: [],
      ranges: ['date'],
      sums: ['minutes'],
      notNull: [],
      sorts: ['date', 'minutes'],
    },
  },
  transfer: collectionTransfer({
    collection: 'timeEntries',
    schema: timeEntrySchema,
    createSchema: timeEntryCreateSchema,
    references: [
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'issueId', family: 'issues' },
      { field: 'userId', family: 'members' },
    ],
    created: timeEntryEvents.created,
    resourceType: 'time_entry',
  }),
});
