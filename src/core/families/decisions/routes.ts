import { getStoredOr404 } from '../shared/operations.js';
import { familyRoutes } from '../shared/routes.js';
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
  get: { stored: (ctx, id) => getStoredOr404(ctx, 'decisions', id, 'decision'), from: 'decisions' },
  update: { body: decisionPatchSchema, run: updateDecision },
  operationIds: {
    list: 'listDecisions',
    create: 'createDecision',
    get: 'getDecision',
    update: 'updateDecision',
  },
  examples: decisionExamples,
});
