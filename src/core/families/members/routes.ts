import { familyRoutes } from '../shared/routes.js';
import { createMember, getMember, listMembers, removeMember, updateMember } from './operations.js';
import {
  memberCreateSchema,
  memberListQuerySchema,
  memberPageSchema,
  memberPatchSchema,
  memberSchema,
} from './schema.js';

/** The workspace's members: workspace admins only, as for webhooks; a read token may only look. */
export const memberRoutes = familyRoutes({
  path: '/members',
  noun: 'member',
  responses: { item: memberSchema, page: memberPageSchema },
  readAccess: 'admin_read',
  writeAccess: 'admin_write',
  list: { query: memberListQuerySchema, run: listMembers },
  create: { body: memberCreateSchema, run: createMember },
  get: getMember,
  update: { body: memberPatchSchema, run: updateMember },
  remove: removeMember,
});
