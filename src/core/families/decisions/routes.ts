import { familyRoutes, standardOperationIds, storedItem } from '../shared/routes.js';
import { decisionExamples } from './examples.js';
import { createDecision, listDecisions, updateDecision } from './operations.js';
import {
  decisionCreateSchema,
  decisionListQuerySchema,
  decisionPageSchema,
  decisionPatchSchema,
  decisionSchema,
} from './schema.js';

export const decisionRoutes = familyRoutes({
  path: '/decisions',
  noun: 'decision',
  responses: { item: decisionSchema, page: decisionPageSchema },
  list: { query: decisionListQuerySchema, run: listDecisions },
  create: {
    body: decisionCreateSchema,
    run: createDecision,
    readsRowOfBody: { collection: 'projects', field: 'projectId' },
  },
  get: storedItem('decisions', 'decision'),
  update: { body: decisionPatchSchema, run: updateDecision },
  operationIds: standardOperationIds('Decision', 'Decisions'),
  examples: decisionExamples,
});
