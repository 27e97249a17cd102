import { collectionFamily } from '../collection-family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { commentEvents } from './events.js';
import { commentRoutes } from './routes.js';
import { commentSchemas } from './schema.js';

export const commentsFamily = collectionFamily({
  name: 'comments',
  about:
    'Markdown comments on an issue, an outcome or a decision, oldest first; each counted in its `commentCount`.',
  routes: commentRoutes,
  events: commentEvents,
  resourceType: 'comment',
  schema: commentSchemas.item,
  schemas: standardComponents(commentSchemas),
  collection: {
    name: 'comments',
    table: 'comments',
    definition: { filters: ['issueId', 'outcomeId', 'decisionId', 'authorId'], sorts: ['updatedAt'] },
  },
  transfer: {
    createSchema: commentSchemas.create,
    // A comment's body names its one target; the record holds null for the other two.
    createInput: (record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
    references: [
      { field: 'issueId', family: 'issues' },
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'decisionId', family: 'decisions' },
      { field: 'authorId', family: 'members' },
    ],
  },
});
