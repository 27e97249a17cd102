import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { decisionExamples } from './examples.js';
import { decisionSchemas } from './schema.js';

export const decisionRoutes = standardRoutes(decisionSchemas, operations, {
  path: '/decisions',
  noun: 'decision',
  readsRowOfBody: { collection: 'projects', field: 'projectId' },
  get: storedItem('decisions', 'decision'),
  operationIds: standardOperationIds('Decision', 'Decisions'),
  examples: decisionExamples,
});
