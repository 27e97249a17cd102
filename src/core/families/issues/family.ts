import { collectionFamily } from '../collection-family.js';
import { issueEvents } from './events.js';
import { issueRoutes } from './routes.js';
import {
  issueCreateSchema,
  issuePageSchema,
  issuePatchSchema,
  issueSchema,
  issueTransitionSchema,
} from './schema.js';
import { issueConflict, keepIssueCounter } from './transfer.js';

export const issuesFamily = collectionFamily({
  name: 'issues',
  about:
    'Work items numbered per project (APO-1), moved through open, in_progress, blocked, resolved and closed.',
  routes: issueRoutes,
  events: issueEvents,
  resourceType: 'issue',
  schema: issueSchema,
  schemas: {
    responses: {
      Issue: issueSchema,
      IssuePage: issuePageSchema,
    },
    requests: {
      IssueCreate: issueCreateSchema,
      IssuePatch: issuePatchSchema,
      IssueTransition: issueTransitionSchema,
    },
  },
  collection: {
    name: 'issues',
    table: 'issues',
    definition: {
      filters: [
        'projectId',
        'outcomeId',
        'status',
        'severity',
        'assigneeId',
        'number',
        'parentId',
        'archivedAt',
        'external.id',
        'external.source',
      ],
      search: ['title', 'description'],
      ranges: ['dueOn', 'estimate', 'blockedBy'],
      notNull: ['archivedAt'],
      sorts: ['updatedAt', 'number', 'severity', 'status', 'title', 'dueOn', 'estimate'],
    },
  },
  transfer: {
    // An export made before issues kept their source has no `external`: such an issue has none.
    schema: issueSchema.extend({ external: issueSchema.shape.external.optional() }),
    added: { external: null },
    createSchema: issueCreateSchema,
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'assigneeId', family: 'members' },
    ],
    conflict: issueConflict,
    afterInsert: keepIssueCounter,
  },
});
