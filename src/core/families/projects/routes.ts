import { ok, resource, storedResource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { pageOf } from '../shared/examples.js';
import { getStoredOr404 } from '../shared/operations.js';
import { projectExamples } from './examples.js';
import { createProject, listProjects, updateProject } from './operations.js';
import {
  projectCreateSchema,
  projectListQuerySchema,
  projectPageSchema,
  projectPatchSchema,
  projectSchema,
} from './schema.js';

const id = (params: Record<string, string>) => params.id ?? '';

export const projectRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects',
    access: 'read',
    kind: 'read',
    operationId: 'listProjects',
    summary: 'List projects',
    description:
      "One page of the workspace's projects. Follow `nextCursor` (null on the last page) for the next page; `total` counts every project.",
    examples: { response: pageOf(projectExamples.item) },
    query: projectListQuerySchema,
    response: projectPageSchema,
    handle: async (ctx, { query }) => ok(await listProjects(ctx, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects',
    access: 'write',
    kind: 'create',
    operationId: 'createProject',
    summary: 'Create a project',
    description:
      'Creates a project and answers it with its ETag and Location. Without a `key` one is made from the name (Apollo → APO); issue keys start with it (APO-1). Needs an Idempotency-Key: the same key with the same body within 24 hours answers the stored result again (200, Idempotent-Replayed: true).',
    examples: { request: projectExamples.create, response: projectExamples.created },
    body: projectCreateSchema,
    response: projectSchema,
    handle: async (ctx, { body }) => resource(await createProject(ctx, body), 201),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/:id',
    access: 'read',
    kind: 'read',
    operationId: 'getProject',
    summary: 'Get a project',
    description: 'One project with its ETag; If-None-Match naming that ETag answers 304 while it is current.',
    examples: { response: projectExamples.item },
    response: projectSchema,
    readsRow: 'projects',
    handle: async (ctx, { params }) =>
      storedResource(await getStoredOr404(ctx, 'projects', id(params), 'project')),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/projects/:id',
    access: 'write',
    kind: 'update',
    operationId: 'updateProject',
    summary: 'Update a project',
    description:
      'Changes the fields sent and keeps the others. Needs If-Match with the ETag of the version changed: a stale one is answered 409 version_conflict, none 428.',
    examples: { request: projectExamples.update, response: projectExamples.updated },
    body: projectPatchSchema,
    response: projectSchema,
    handle: async (ctx, { params, body }) => resource(await updateProject(ctx, id(params), body)),
  }),
];
