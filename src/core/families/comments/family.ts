import { collectionFamily } from '../collection-family.js';
import { commentEvents } from './events.js';
import { commentRoutes } from './routes.js';
import { commentCreateSchema, commentPageSchema, commentPatchSchema, commentSchema } from './schema.js';

export const commentsFamily = collectionFamily({
  name: 'comments',
  about:
    'Markdown comments on an issue, an outcome or a decision, oldest first; each counted in its `commentCount`.',
  routes: commentRoutes,
  events: commentEvents,
  resourceType: 'comment',
  schema: commentSchema,
  schemas: {
    responses: {
      Comment: commentSchema,
      CommentPage: commentPageSchema,
    },
    requests: {
      CommentCreate: commentCreateSchema,
      CommentPatch: commentPatchSchema,
    },
  },
  collection: {
    name: 'comments',
    table: 'comments',
    definition: { filters: ['issueId', 'outcomeId', 'decisionId', 'authorId'], sorts: ['updatedAt'] },
  },
  transfer: {
    createSchema: commentCreateSchema,
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
