import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { commentExamples } from './examples.js';
import { commentSchemas } from './schema.js';

export const commentRoutes = standardRoutes(commentSchemas, operations, {
  path: '/comments',
  noun: 'comment',
  get: storedItem('comments', 'comment'),
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
