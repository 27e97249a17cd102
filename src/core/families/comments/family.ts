import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { commentEvents } from './events.js';
import { commentRoutes } from './routes.js';
import { commentCreateSchema, commentPageSchema, commentPatchSchema, commentSchema } from './schema.js';

export const commentsFamily = defineFamily({
  name: 'comments',
  routes: commentRoutes,
  about:
    'Markdown comments on an issue, an outcome or a decision, oldest first; each counted in its `commentCount`.',
  events: commentEvents,
  eventObject: { prefix: 'comment', schema: commentSchema },
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
    definition: {
      filters: ['issueId', 'outcomeId', 'decisionId', 'authorId'],
      search: [],
      ranges: [],
      sums: [],
      notNull: [],
      sorts: ['updatedAt'],
    },
  },
  transfer: collectionTransfer({
    collection: 'comments',
    schema: commentSchema,
    createSchema: commentCreateSchema,
    // A comment's body names its one target; the record holds null for the other two.
    createInput: (record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
    references: [
      { field: 'issueId', family: 'issues' },
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'decisionId', family: 'decisions' },
      { field: 'authorId', family: 'members' },
    ],
    created: commentEvents.created,
    resourceType: 'comment',
  }),
});
