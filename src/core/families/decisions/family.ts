import { collectionFamily } from '../collection-family.js';
import { decisionEvents } from './events.js';
import { decisionRoutes } from './routes.js';
import { decisionCreateSchema, decisionPageSchema, decisionPatchSchema, decisionSchema } from './schema.js';

export const decisionsFamily = collectionFamily({
  name: 'decisions',
  about: 'Decisions taken, with their rationale and participants, and what superseded them.',
  routes: decisionRoutes,
  events: decisionEvents,
  resourceType: 'decision',
  schema: decisionSchema,
  schemas: {
    responses: {
      Decision: decisionSchema,
      DecisionPage: decisionPageSchema,
    },
    requests: {
      DecisionCreate: decisionCreateSchema,
      DecisionPatch: decisionPatchSchema,
    },
  },
  collection: {
    name: 'decisions',
    table: 'decisions',
    definition: {
      filters: ['projectId', 'outcomeId', 'status', 'supersededBy'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: decisionCreateSchema,
    // supersededBy may name a decision later in the file: it is not checked.
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
    ],
  },
});
