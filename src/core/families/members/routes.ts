import { defineRoute, type Route } from '../../pipeline/route.js';
import { familyRoutes, standardOperationIds } from '../shared/routes.js';
import { memberExamples } from './examples.js';
import { inviteMember, inviteUrlOf, type MemberInviteAnswer, memberInviteSchema } from './invite.js';
import { createMember, getMember, listMembers, removeMember, updateMember } from './operations.js';
import {
  memberCreateSchema,
  memberListQuerySchema,
  memberPageSchema,
  memberPatchSchema,
  memberSchema,
} from './schema.js';

/** The workspace's members: workspace admins only, as for webhooks; a read token may only look. */
const memberFamilyRoutes = familyRoutes({
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
  operationIds: standardOperationIds('Member', 'Members'),
  about: {
    create:
      'Adds a user by email, making the user when there is none; a user who is already a member is answered 409 already_member with `memberId`.',
    update: 'The last admin of a workspace cannot be demoted (409 last_admin).',
    remove: 'The last admin of a workspace cannot be removed (409 last_admin).',
  },
  examples: memberExamples,
});

/**
 * `POST /members/invites`: under the members, whose access it shares, since what it makes is a
 * member (and a link for them); there is no invites collection to list or read. Creates need an
 * Idempotency-Key; the link is shown in the 201 only, as a webhook's secret is: a replay answers
 * `inviteUrl: null`, so the secret is never stored with the key.
 */
const inviteRoute = defineRoute({
  method: 'POST',
  path: '/members/invites',
  access: 'admin_write',
  kind: 'create',
  operationId: 'inviteMember',
  summary: 'Invite a member',
  description:
    'Adds a user by email (making the user when there is none; a member already keeps their role) and answers a one-time link, `inviteUrl`, with which they set a password: it works once, for 7 days, like the link the members page shows. No email is sent: pass the link on. A user who already has a password is answered 409 has_password (they sign in with it). Needs an Idempotency-Key: the same key with the same body within 24 hours answers the stored result again (200, Idempotent-Replayed: true) with `inviteUrl: null`; a new key makes a new link.',
  examples: {
    request: memberExamples.invite,
    response: memberExamples.invited,
    replay: { ...memberExamples.invited, inviteUrl: null },
  },
  body: memberCreateSchema,
  response: memberInviteSchema,
  handle: async (ctx, { body, headers, secure }) => {
    const { path, ...invite } = await inviteMember(ctx, body);
    const answer: MemberInviteAnswer = {
      ...invite,
      inviteUrl: inviteUrlOf(path, { host: headers.host, secure }),
    };
    return { status: 201, body: answer, replayBody: { ...answer, inviteUrl: null } };
  },
});

/** The members family, and its invites: workspace admins only. */
export const memberRoutes: Route[] = [...memberFamilyRoutes, inviteRoute];
