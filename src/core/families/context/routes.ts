import { familyRoutes } from '../shared/routes.js';
import { createContext, deleteContext, getContext, listContext } from './operations.js';
import { contextCreateSchema, contextListQuerySchema } from './schema.js';

export const contextRoutes = familyRoutes({
  path: '/context',
  noun: 'context item',
  list: { query: contextListQuerySchema, run: listContext },
  create: { body: contextCreateSchema, run: createContext },
  get: getContext,
  remove: deleteContext,
});
