import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { timeEntryExamples } from './examples.js';
import { timeEntrySchemas } from './schema.js';

export const timeEntryRoutes = standardRoutes(timeEntrySchemas, operations, {
  path: '/time-entries',
  noun: 'time entry',
  plural: 'time entries',
  get: storedItem('timeEntries', 'time entry'),
  operationIds: standardOperationIds('TimeEntry', 'TimeEntries'),
  examples: timeEntryExamples,
});
