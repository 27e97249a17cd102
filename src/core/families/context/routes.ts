import { familyRoutes, standardOperationIds, storedItem } from '../shared/routes.js';
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
  get: storedItem('context', 'context item'),
  remove: deleteContext,
  operationIds: standardOperationIds('ContextItem', 'ContextItems'),
  about: {
    create: 'A `document` or a `link` carries a `url`, a `note` a `body`.',
  },
  examples: contextExamples,
});
