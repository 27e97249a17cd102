import { familyRoutes, standardOperationIds, storedItem } from '../shared/routes.js';
import { commentExamples } from './examples.js';
import { createComment, deleteComment, listComments, updateComment } from './operations.js';
import {
  commentCreateSchema,
  commentListQuerySchema,
  commentPageSchema,
  commentPatchSchema,
  commentSchema,
} from './schema.js';

export const commentRoutes = familyRoutes({
  path: '/comments',
  noun: 'comment',
  responses: { item: commentSchema, page: commentPageSchema },
  list: { query: commentListQuerySchema, run: listComments },
  create: { body: commentCreateSchema, run: createComment },
  get: storedItem('comments', 'comment'),
  update: { body: commentPatchSchema, run: updateComment },
  remove: deleteComment,
  operationIds: standardOperationIds('Comment', 'Comments'),
  about: {
    list: 'Oldest first unless `sort=-createdAt`; narrow to one thread with `issueId`, `outcomeId` or `decisionId`, or to one author with `authorId`.',
    create:
      "Names exactly one of `issueId`, `outcomeId` and `decisionId`; the author is the token's user. The commented resource's `commentCount` grows by one, as its next version (its ETag changes; no event of its own).",
    update:
      'Only the body changes, and `editedAt` with it. Only its author or a workspace admin may edit a comment.',
    remove:
      "Only its author or a workspace admin may delete a comment; the commented resource's `commentCount` shrinks by one.",
  },
  examples: commentExamples,
});
