import { ok, resource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { createIssue, getIssue, listIssues, transitionIssue, updateIssue } from './operations.js';
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
    summary: 'List issues',
    query: issueListQuerySchema,
    response: issuePageSchema,
    handle: async (ctx, { query }) => ok(await listIssues(ctx, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/issues',
    access: 'write',
    kind: 'create',
    summary: 'Create an issue',
    body: issueCreateSchema,
    response: issueSchema,
    handle: async (ctx, { body }) => resource(await createIssue(ctx, body), 201),
  }),
  defineRoute({
    method: 'GET',
    path: '/issues/:id',
    access: 'read',
    kind: 'read',
    summary: 'Get an issue by id or key',
    response: issueSchema,
    handle: async (ctx, { params }) => resource(await getIssue(ctx, id(params))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/issues/:id',
    access: 'write',
    kind: 'update',
    summary: 'Update an issue',
    body: issuePatchSchema,
    response: issueSchema,
    handle: async (ctx, { params, body }) => resource(await updateIssue(ctx, id(params), body)),
  }),
  defineRoute({
    method: 'POST',
    path: '/issues/:id/transition',
    access: 'write',
    kind: 'action',
    summary: "Change an issue's status",
    body: issueTransitionSchema,
    response: issueSchema,
    handle: async (ctx, { params, body }) => resource(await transitionIssue(ctx, id(params), body)),
  }),
];
