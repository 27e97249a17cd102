import { defineFamily } from '../family.js';
import { memberEvents } from './events.js';
import { memberInviteSchema } from './invite.js';
import { memberRoutes } from './routes.js';
import { memberCreateSchema, memberPageSchema, memberPatchSchema, memberSchema } from './schema.js';
import { memberTransfer } from './transfer.js';

export const membersFamily = defineFamily({
  name: 'members',
  routes: memberRoutes,
  about: "The workspace's users and their roles. Workspace admins only; a read token may only look.",
  events: memberEvents,
  eventObject: { prefix: 'member', schema: memberSchema },
  schemas: {
    responses: {
      Member: memberSchema,
      MemberPage: memberPageSchema,
      MemberInvite: memberInviteSchema,
    },
    requests: {
      MemberCreate: memberCreateSchema,
      MemberPatch: memberPatchSchema,
    },
  },
  transfer: memberTransfer,
});
