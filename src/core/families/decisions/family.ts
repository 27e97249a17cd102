import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { decisionEvents } from './events.js';
import { decisionRoutes } from './routes.js';
import { decisionSchemas } from './schema.js';

export const decisionsFamily = collectionFamily({
  name: 'decisions',
  about: 'Decisions taken, with their rationale and participants, and what superseded them.',
  routes: decisionRoutes,
  events: decisionEvents,
  resourceType: 'decision',
  schema: decisionSchemas.item,
  schemas: standardComponents(decisionSchemas),
  collection: {
    name: 'decisions',
    table: 'decisions',
    definition: {
      filters: ['projectId', 'outcomeId', 'status', 'supersededBy'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: decisionSchemas.create,
    // supersededBy may name a decision later in the file: it is not checked.
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
    ],
  },
});
