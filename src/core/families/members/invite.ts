import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { roles } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import { createInvite } from '../../tenancy/invites.js';
import { idOf, timestampOut } from '../shared/schema.js';
import { createMember } from './operations.js';
import type { MemberCreate } from './schema.js';

/** An invite just made: the member it is for, and the link that lets them set a password once. */
export interface MemberInvite {
  memberId: string;
  email: string;
  role: (typeof roles)[number];
  /** The path of the link, `/invite/<secret>`: where the server is reached goes in front of it. */
  path: string;
  expiresAt: string;
}

/** A user with a password signs in with it: a link that set it would take over their account. */
const hasPassword = (email: string) =>
  new ApiError(409, 'has_password', `${email} already has a password: they sign in with it.`);

/**
 * Adds the email to the workspace (unless a member already, who keeps their role) and makes a
 * one-time link with which they set a password. Adding goes through the members operation, so it
 * signals and webhooks as `POST /members` would; the link itself is tenancy/invites.ts's, as the
 * members page and the CLI make it. No email is sent: the link is for whoever invites to pass on.
 */
export async function inviteMember(ctx: OperationContext, input: MemberCreate): Promise<MemberInvite> {
  const workspaceId = ctx.tenant.workspaceId;
  const user = await ctx.tx.tenancy.getUserByEmail(input.email);
  if (user?.passwordHash) throw hasPassword(input.email);
  const existing = user && (await ctx.tx.tenancy.getMembership(workspaceId, user.id));
  const role = existing ? existing.role : (await createMember(ctx, input)).role;
  const invite = await createInvite(
    { tx: ctx.tx, ids: ctx.ids, now: Date.parse(ctx.now) },
    { workspaceId, email: input.email, role },
  );
  // Refused above already; checked again by createInvite itself, in this same transaction.
  if (!invite.ok) throw hasPassword(input.email);
  return {
    memberId: invite.user.id,
    email: invite.user.email,
    role,
    path: invite.path,
    expiresAt: invite.expiresAt,
  };
}

/** The answer of `POST /members/invites`. */
export const memberInviteSchema = z.strictObject({
  memberId: idOf('usr').describe("The invited member's id: the id of its user"),
  email: z.string(),
  role: z.enum(roles).describe('The role in the workspace: a member already keeps theirs'),
  inviteUrl: z
    .string()
    .nullable()
    .describe(
      'The one-time link with which the member sets a password, shown in the 201 only; null in a replay (200, Idempotent-Replayed: true), since only its hash is stored',
    ),
  expiresAt: timestampOut.describe('Until when the link works (7 days); it works once'),
});
export type MemberInviteAnswer = z.output<typeof memberInviteSchema>;

/**
 * The link in full: the request's scheme and `Host` in front of the path, as the admin reached
 * the server (behind a proxy that rewrites `Host`, the path with the public address in front).
 * Without a `Host` (an embedding app's request) the path alone.
 */
export function inviteUrlOf(path: string, request: { host: string | undefined; secure: boolean }): string {
  const host = request.host;
  if (!host || !/^[A-Za-z0-9.\-:[\]]+$/.test(host)) return path;
  return `${request.secure ? 'https' : 'http'}://${host}${path}`;
}
