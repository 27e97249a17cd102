import { noContent, ok, resource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { relationExamples } from './examples.js';
import { createRelation, deleteRelation, getRelation, listRelations } from './operations.js';
import {
  relationCreateSchema,
  relationListQuerySchema,
  relationPageSchema,
  relationSchema,
} from './schema.js';

const id = (params: Record<string, string>) => params.id ?? '';

export const relationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/issues/:id/relations',
    access: 'read',
    kind: 'read',
    operationId: 'listIssueRelations',
    summary: "List an issue's relations",
    description:
      'The relations of the issue (by id or key), from both ends, oldest first: each with its type as read from this issue (`blocked_by` for a relation stored as the other issue `blocks` this one) and the issue at the other end. Follow `nextCursor` for the next page; `total` counts them all.',
    examples: { response: relationExamples.page },
    query: relationListQuerySchema,
    response: relationPageSchema,
    handle: async (ctx, { params, query }) => ok(await listRelations(ctx, id(params), query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/issues/:id/relations',
    access: 'write',
    kind: 'create',
    operationId: 'createIssueRelation',
    summary: 'Relate two issues',
    description:
      'Relates the issue to `issueId` as `type` says (`blocks`, `blocked_by`, `relates_to`, `duplicates`, `duplicate_of`, `parent_of`, `child_of`). Stored once and read from both ends with the inverse type; `blockedBy`, `parentId` and `subIssues` of the issues follow. 404 for an issue of another workspace; 422 `self_relation`, `relation_exists`, `relation_cycle` (with `path`, the keys around the cycle) or `second_parent`. Needs an Idempotency-Key.',
    examples: { request: relationExamples.create, response: relationExamples.created },
    body: relationCreateSchema,
    response: relationSchema,
    handle: async (ctx, { params, body }) => resource(await createRelation(ctx, id(params), body), 201),
  }),
  defineRoute({
    method: 'GET',
    path: '/issues/:id/relations/:relationId',
    access: 'read',
    kind: 'read',
    operationId: 'getIssueRelation',
    summary: 'Get a relation',
    description:
      "One relation of the issue (either end may name it in the path), with its type as read from that issue: the `Location` of a relation's create. 404 when the relation does not touch the issue.",
    examples: { response: relationExamples.created },
    response: relationSchema,
    handle: async (ctx, { params }) => resource(await getRelation(ctx, id(params), params.relationId ?? '')),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/issues/:id/relations/:relationId',
    access: 'write',
    kind: 'delete',
    operationId: 'deleteIssueRelation',
    summary: 'Remove a relation',
    description:
      'Removes the relation from both issues (either may name it in the path), and its counts with it. With If-Match, only at that version.',
    examples: {},
    handle: async (ctx, { params }) => {
      await deleteRelation(ctx, id(params), params.relationId ?? '');
      return noContent();
    },
  }),
];
