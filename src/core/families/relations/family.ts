import { collectionFamily } from '../collection-family.js';
import { relationEvents } from './events.js';
import { relationRoutes } from './routes.js';
import { relationCreateSchema, relationPageSchema, relationSchema, storedRelationSchema } from './schema.js';

export const relationsFamily = collectionFamily({
  name: 'relations',
  routes: relationRoutes,
  events: relationEvents,
  resourceType: 'issue_relation',
  schema: storedRelationSchema,
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
      sorts: [],
    },
  },
  transfer: {
    createSchema: relationCreateSchema,
    // The API's body names the type and the other issue; the rules it is refused by (itself,
    // the same relation twice, a cycle, a second parent) need the relation graph, which the
    // importer reads with its file's.
    createInput: (record) => ({ type: record.type, issueId: record.targetId }),
    references: [
      { field: 'sourceId', family: 'issues' },
      { field: 'targetId', family: 'issues' },
    ],
  },
});
