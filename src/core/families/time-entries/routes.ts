import { getStoredOr404 } from '../shared/operations.js';
import { familyRoutes } from '../shared/routes.js';
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
  get: { stored: (ctx, id) => getStoredOr404(ctx, 'timeEntries', id, 'time entry'), from: 'timeEntries' },
  update: { body: timeEntryPatchSchema, run: updateTimeEntry },
  remove: deleteTimeEntry,
  operationIds: {
    list: 'listTimeEntries',
    create: 'createTimeEntry',
    get: 'getTimeEntry',
    update: 'updateTimeEntry',
    remove: 'deleteTimeEntry',
  },
  examples: timeEntryExamples,
});
