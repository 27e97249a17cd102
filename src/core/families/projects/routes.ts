import { ok, resource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { createProject, getProject, listProjects, updateProject } from './operations.js';
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
    summary: 'List projects',
    query: projectListQuerySchema,
    response: projectPageSchema,
    handle: async (ctx, { query }) => ok(await listProjects(ctx, query)),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects',
    access: 'write',
    kind: 'create',
    summary: 'Create a project',
    body: projectCreateSchema,
    response: projectSchema,
    handle: async (ctx, { body }) => resource(await createProject(ctx, body), 201),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/:id',
    access: 'read',
    kind: 'read',
    summary: 'Get a project',
    response: projectSchema,
    handle: async (ctx, { params }) => resource(await getProject(ctx, id(params))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/projects/:id',
    access: 'write',
    kind: 'update',
    summary: 'Update a project',
    body: projectPatchSchema,
    response: projectSchema,
    handle: async (ctx, { params, body }) => resource(await updateProject(ctx, id(params), body)),
  }),
];
