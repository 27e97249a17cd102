import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { relationEvents } from './events.js';
import { relationRoutes } from './routes.js';
import { relationCreateSchema, relationPageSchema, relationSchema, storedRelationSchema } from './schema.js';
import { relationTaken } from './transfer.js';

export const relationsFamily = defineFamily({
  name: 'relations',
  routes: relationRoutes,
  events: relationEvents,
  eventObject: { prefix: 'issue_relation', schema: storedRelationSchema },
  schemas: {
    responses: {
      IssueRelation: relationSchema,
      IssueRelationPage: relationPageSchema,
      StoredIssueRelation: storedRelationSchema,
    },
    requests: {
      IssueRelationCreate: relationCreateSchema,
    },
  },
  collection: {
    name: 'issueRelations',
    table: 'issue_relations',
    definition: {
      filters: ['sourceId', 'targetId', 'type'],
      search: [],
      ranges: [],
      sums: [],
      notNull: [],
      sorts: [],
    },
  },
  transfer: collectionTransfer({
    collection: 'issueRelations',
    schema: storedRelationSchema,
    references: [
      { field: 'sourceId', family: 'issues' },
      { field: 'targetId', family: 'issues' },
    ],
    created: relationEvents.created,
    resourceType: 'issue_relation',
    conflict: relationTaken,
  }),
});
