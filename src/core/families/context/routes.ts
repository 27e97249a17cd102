import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { contextExamples } from './examples.js';
import { contextSchemas } from './schema.js';

export const contextRoutes = standardRoutes(contextSchemas, operations, {
  path: '/context',
  noun: 'context item',
  get: storedItem('context', 'context item'),
  operationIds: standardOperationIds('ContextItem', 'ContextItems'),
  about: {
    create: 'A `document` or a `link` carries a `url`, a `note` a `body`.',
  },
  examples: contextExamples,
});
