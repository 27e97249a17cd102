import { getStoredOr404 } from '../shared/operations.js';
import { familyRoutes } from '../shared/routes.js';
import { contextExamples } from './examples.js';
import { createContext, deleteContext, listContext } from './operations.js';
import {
  contextCreateSchema,
  contextItemSchema,
  contextListQuerySchema,
  contextPageSchema,
} from './schema.js';

export const contextRoutes = familyRoutes({
  path: '/context',
  noun: 'context item',
  responses: { item: contextItemSchema, page: contextPageSchema },
  list: { query: contextListQuerySchema, run: listContext },
  create: { body: contextCreateSchema, run: createContext },
  get: { stored: (ctx, id) => getStoredOr404(ctx, 'context', id, 'context item'), from: 'context' },
  remove: deleteContext,
  operationIds: {
    list: 'listContextItems',
    create: 'createContextItem',
    get: 'getContextItem',
    remove: 'deleteContextItem',
  },
  about: {
    create: 'A `document` or a `link` carries a `url`, a `note` a `body`.',
  },
  examples: contextExamples,
});
