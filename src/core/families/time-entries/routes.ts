import { familyRoutes, standardOperationIds, storedItem } from '../shared/routes.js';
import { timeEntryExamples } from './examples.js';
import { createTimeEntry, deleteTimeEntry, listTimeEntries, updateTimeEntry } from './operations.js';
import {
  timeEntryCreateSchema,
  timeEntryListQuerySchema,
  timeEntryPageSchema,
  timeEntryPatchSchema,
  timeEntrySchema,
} from './schema.js';

export const timeEntryRoutes = familyRoutes({
  path: '/time-entries',
  noun: 'time entry',
  plural: 'time entries',
  responses: { item: timeEntrySchema, page: timeEntryPageSchema },
  list: { query: timeEntryListQuerySchema, run: listTimeEntries },
  create: { body: timeEntryCreateSchema, run: createTimeEntry },
  get: storedItem('timeEntries', 'time entry'),
  update: { body: timeEntryPatchSchema, run: updateTimeEntry },
  remove: deleteTimeEntry,
  operationIds: standardOperationIds('TimeEntry', 'TimeEntries'),
  examples: timeEntryExamples,
});
