import { familyRoutes } from '../shared/routes.js';
import { memberExamples } from './examples.js';
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
  operationIds: {
    list: 'listMembers',
    create: 'createMember',
    get: 'getMember',
    update: 'updateMember',
    remove: 'deleteMember',
  },
  about: {
    create:
      'Adds a user by email, making the user when there is none; a user who is already a member is answered 409 already_member with `memberId`.',
    update: 'The last admin of a workspace cannot be demoted (409 last_admin).',
    remove: 'The last admin of a workspace cannot be removed (409 last_admin).',
  },
  examples: memberExamples,
});
