import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { decisionEvents } from './events.js';
import { decisionRoutes } from './routes.js';
import { decisionCreateSchema, decisionPageSchema, decisionPatchSchema, decisionSchema } from './schema.js';

export const decisionsFamily = defineFamily({
  name: 'decisions',
  routes: decisionRoutes,
  about: 'Decisions taken, with their rationale and participants, and what superseded them.',
  events: decisionEvents,
  eventObject: { prefix: 'decision', schema: decisionSchema },
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
      search: [],
      ranges: [],
      sums: [],
      notNull: [],
      sorts: ['updatedAt'],
    },
  },
  transfer: collectionTransfer({
    collection: 'decisions',
    schema: decisionSchema,
    createSchema: decisionCreateSchema,
    // supersededBy may name a decision later in the file: it is not checked.
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
    ],
    created: decisionEvents.created,
    resourceType: 'decision',
  }),
});
