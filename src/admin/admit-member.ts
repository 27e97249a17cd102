import type { Reply, Role, Workspace } from '../core/extension-kit.js';
import { isoTime, type OperationContext, operationContext } from '../core/extension-kit.js';
import { messagePage, redirect, type SignedIn } from './layout.js';
import { signInUrl } from './next-path.js';
import type { AdminContext } from './request.js';
import { currentSession } from './sessions.js';

/** A signed-in member of the workspace a page belongs to, of any role. */
export interface Member {
  workspace: Workspace;
  userId: string;
  role: Role;
  signedIn: SignedIn;
}

/**
 * Who may see a workspace's outcome pages: any signed-in member, viewers included. Signed-out
 * visitors go to sign-in and come back; a user who is not a member, like an unknown workspace,
 * gets a 404 (the pages say nothing of a workspace to those outside it).
 */
export async function admitMember(ctx: AdminContext, slug: string): Promise<Member | Reply> {
  const active = await currentSession(ctx.tx, ctx.req.cookies, ctx.nowMs);
  if (!active) return redirect(signInUrl(ctx.req.path));
  const signedIn = { email: active.user.email, csrfToken: active.session.csrfToken };
  const workspace = await ctx.tx.tenancy.getWorkspaceBySlug(slug);
  const membership = workspace ? await ctx.tx.tenancy.getMembership(workspace.id, active.user.id) : null;
  if (!workspace || !membership) {
    return messagePage(404, 'Page not found', `You are not a member of a workspace "${slug}".`, { signedIn });
  }
  return { workspace, userId: active.user.id, role: membership.role, signedIn };
}

export const isMemberReply = (value: Member | Reply): value is Reply => 'status' in value;

/** What every outcome page shows of its viewer: their workspace, their sign-in, and admin links for an admin. */
export const viewerOf = (member: Member) => ({
  workspace: member.workspace,
  signedIn: member.signedIn,
  admin: member.role === 'admin',
});

/** The core's operations as the member, read-only here: the page's transaction, no token. */
export const memberOperations = (ctx: AdminContext, member: Member): OperationContext =>
  operationContext(
    ctx.tx,
    isoTime(ctx.nowMs),
    ctx.ids,
    {
      accountId: member.workspace.accountId,
      workspaceId: member.workspace.id,
      actor: { userId: member.userId, tokenId: null },
    },
    null,
  );
