import { collectionFamily } from '../collection-family.js';
import { projectEvents } from './events.js';
import { projectRoutes } from './routes.js';
import { projectCreateSchema, projectPageSchema, projectPatchSchema, projectSchema } from './schema.js';
import { projectKeyTaken } from './transfer.js';

export const projectsFamily = collectionFamily({
  name: 'projects',
  about: 'A project groups outcomes, issues, decisions and context; its key (APO) prefixes its issue keys.',
  routes: projectRoutes,
  events: projectEvents,
  resourceType: 'project',
  schema: projectSchema,
  schemas: {
    responses: {
      Project: projectSchema,
      ProjectPage: projectPageSchema,
    },
    requests: {
      ProjectCreate: projectCreateSchema,
      ProjectPatch: projectPatchSchema,
    },
  },
  collection: {
    name: 'projects',
    table: 'projects',
    definition: {
      filters: ['key'],
      search: ['name', 'description'],
      sorts: ['updatedAt'],
    },
  },
  transfer: {
    createSchema: projectCreateSchema,
    references: [],
    conflict: projectKeyTaken,
  },
});
