import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { projectEvents } from './events.js';
import { projectRoutes } from './routes.js';
import { projectCreateSchema, projectPageSchema, projectPatchSchema, projectSchema } from './schema.js';
import { projectKeyTaken } from './transfer.js';

export const projectsFamily = defineFamily({
  name: 'projects',
  routes: projectRoutes,
  about: 'A project groups outcomes, issues, decisions and context; its key (APO) prefixes its issue keys.',
  events: projectEvents,
  eventObject: { prefix: 'project', schema: projectSchema },
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
      ranges: [],
      sums: [],
      notNull: [],
      sorts: ['updatedAt'],
    },
  },
  transfer: collectionTransfer({
    collection: 'projects',
    schema: projectSchema,
    createSchema: projectCreateSchema,
    references: [],
    created: projectEvents.created,
    resourceType: 'project',
    conflict: projectKeyTaken,
  }),
});
