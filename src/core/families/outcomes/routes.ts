import { defineRoute } from '../../pipeline/route.js';
import { archiveRoutes } from '../shared/archive-routes.js';
import { standardOperationIds, storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { outcomeExamples } from './examples.js';
import { archiveOutcome, unarchiveOutcome } from './operations.js';
import { outcomeSchema, outcomeSchemas } from './schema.js';
import { outcomeSummary, outcomeSummarySchema, summaryEtag } from './summary.js';

export const outcomeRoutes = [
  ...standardRoutes(outcomeSchemas, operations, {
    path: '/outcomes',
    noun: 'outcome',
    readsRowOfBody: { collection: 'projects', field: 'projectId' },
    get: storedItem('outcomes', 'outcome'),
    operationIds: standardOperationIds('Outcome', 'Outcomes'),
    about: {
      remove:
        'An outcome that issues, decisions or time entries still refer to is not deleted: 409 resource_in_use counts them.',
    },
    examples: outcomeExamples,
  }),
  ...archiveRoutes({
    path: '/outcomes',
    noun: 'outcome',
    name: 'Outcome',
    item: outcomeSchema,
    examples: {
      archived: {
        ...outcomeExamples.item,
        archivedAt: '2026-11-22T10:30:30.000Z',
        updatedAt: '2026-11-22T10:30:30.000Z',
        version: 2,
      },
      unarchived: { ...outcomeExamples.item, updatedAt: '2026-11-22T10:31:31.000Z', version: 3 },
    },
    archive: archiveOutcome,
    unarchive: unarchiveOutcome,
  }),
  defineRoute({
    method: 'GET',
    path: '/outcomes/:id/summary',
    access: 'read',
    kind: 'read',
    conditional: true,
    operationId: 'getOutcomeSummary',
    summary: 'Get where an outcome stands',
    description:
      "The outcome's issues by status and by severity, its open blockers (issues in status blocked; `blocks` relations are not counted there, an issue's `blockedBy` is), the minutes logged against it in all, by user and by ISO week, its decisions by status, and its last activity, read in one transaction: one consistent snapshot. The ETag is a digest of the answer, so it changes exactly when something the summary counts changes; `If-None-Match` with it answers 304.",
    examples: { response: outcomeExamples.summary },
    response: outcomeSummarySchema,
    handle: async (ctx, { params }) => {
      const summary = await outcomeSummary(ctx, params.id ?? '');
      return { status: 200, body: summary, headers: { ETag: summaryEtag(summary) } };
    },
  }),
];
