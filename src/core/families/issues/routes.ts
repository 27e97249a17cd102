import { ok, resource, storedResource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { archiveRoutes } from '../shared/archive-routes.js';
import { pageOf } from '../shared/examples.js';
import { issueExamples } from './examples.js';
import {
  archiveIssue,
  createIssue,
  getIssueJson,
  listIssues,
  transitionIssue,
  unarchiveIssue,
  updateIssue,
} from './operations.js';
import {
  issueCreateSchema,
  issueListQuerySchema,
  issuePageSchema,
  issuePatchSchema,
  issueSchema,
  issueTransitionSchema,
} from './schema.js';

const id = (params: Record<string, string>) => params.id ?? '';

export const issueRoutes = [
  defineRoute({
    method: 'GET',
    path: '/issues',
    access: 'read',
    kind: 'read',
    operationId: 'listIssues',
    summary: 'List issues',
    description:
      "One page of the workspace's issues, narrowed by project, outcome, status, severity, assignee or labels (`labels`: every one of them; `labelsAny`: any), by where an imported issue came from (`externalId=SHOP-101`, `externalSource=jira`), or searched with `q`. Follow `nextCursor` (null on the last page) for the next page; `total` counts every match.",
    examples: { response: pageOf(issueExamples.item) },
    query: issueListQuerySchema,
    response: issuePageSchema,
    handle: async (ctx, { query }) => ok(await listIssues(ctx, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/issues',
    access: 'write',
    kind: 'create',
    operationId: 'createIssue',
    summary: 'Create an issue',
    description:
      "Creates an open issue numbered in its project (its key, APO-1, is the project's key and that number) and answers it with its ETag and Location. An import says where the issue came from with `external` (`{ source, id, url? }`): a workspace holds one issue a source and id, and a second is refused (400). Needs an Idempotency-Key: the same key with the same body within 24 hours answers the stored result again (200, Idempotent-Replayed: true).",
    examples: { request: issueExamples.create, response: issueExamples.created },
    body: issueCreateSchema,
    response: issueSchema,
    readsRowOfBody: { collection: 'projects', field: 'projectId' },
    handle: async (ctx, { body }) => resource(await createIssue(ctx, body), 201),
  }),
  defineRoute({
    method: 'GET',
    path: '/issues/:id',
    access: 'read',
    kind: 'read',
    operationId: 'getIssue',
    summary: 'Get an issue by id or key',
    description:
      'One issue, named by its id or its key (APO-1), with its ETag; If-None-Match naming that ETag answers 304 while it is current.',
    examples: { response: issueExamples.item },
    response: issueSchema,
    readsRow: 'issues',
    handle: async (ctx, { params }) => storedResource(await getIssueJson(ctx, id(params))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/issues/:id',
    access: 'write',
    kind: 'update',
    operationId: 'updateIssue',
    summary: 'Update an issue',
    description:
      'Changes the fields sent and keeps the others; the status changes only through the transition. Needs If-Match with the ETag of the version changed: a stale one is answered 409 version_conflict, none 428.',
    examples: { request: issueExamples.update, response: issueExamples.updated },
    body: issuePatchSchema,
    response: issueSchema,
    handle: async (ctx, { params, body }) => resource(await updateIssue(ctx, id(params), body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/issues/:id/transition',
    access: 'write',
    kind: 'action',
    operationId: 'transitionIssue',
    summary: "Change an issue's status",
    description:
      'Moves the issue to the status `to` when its workflow allows that from the current status; otherwise 422 invalid_transition lists the statuses reachable. An Idempotency-Key and If-Match are optional.',
    examples: { request: issueExamples.transition, response: issueExamples.transitioned },
    body: issueTransitionSchema,
    response: issueSchema,
    handle: async (ctx, { params, body }) => resource(await transitionIssue(ctx, id(params), body)),
  }),
  ...archiveRoutes({
    path: '/issues',
    noun: 'issue',
    name: 'Issue',
    item: issueSchema,
    examples: {
      archived: {
        ...issueExamples.item,
        archivedAt: '2026-11-22T10:30:30.000Z',
        updatedAt: '2026-11-22T10:30:30.000Z',
        version: 2,
      },
      unarchived: { ...issueExamples.item, updatedAt: '2026-11-22T10:31:31.000Z', version: 3 },
    },
    archive: archiveIssue,
    unarchive: unarchiveIssue,
  }),
];
