import type { Reply, Workspace } from '../core/extension-kit.js';
import { isoTime, type OperationContext, operationContext, type Services } from '../core/extension-kit.js';
import { messagePage, redirect, type SignedIn } from './layout.js';
import { signInUrl } from './next-path.js';
import type { AdminContext } from './request.js';
import { sameSecret } from './secrets.js';
import { type ActiveSession, currentSession } from './sessions.js';

/** A signed-in admin of the workspace a page belongs to. */
export interface Admin {
  workspace: Workspace;
  userId: string;
  signedIn: SignedIn;
  session: ActiveSession;
}

/**
 * Who may see a workspace's admin pages: a signed-in admin of that workspace. Anyone else gets
 * the reply instead: signed-out visitors go to sign-in and come back to `path`, members,
 * viewers and other workspaces' admins get 403, an unknown workspace 404; a POST also needs
 * the session's CSRF token.
 */
export async function admitAdmin(ctx: AdminContext, slug: string): Promise<Admin | Reply> {
  const active = await currentSession(ctx.tx, ctx.req.cookies, ctx.nowMs);
  if (!active) return redirect(signInUrl(ctx.req.method === 'GET' ? ctx.req.path : `/${slug}/admin`));
  const signedIn = { email: active.user.email, csrfToken: active.session.csrfToken };
  const workspace = await ctx.tx.tenancy.getWorkspaceBySlug(slug);
  if (!workspace) {
    return messagePage(404, 'Page not found', `There is no workspace "${slug}".`, { signedIn });
  }
  const membership = await ctx.tx.tenancy.getMembership(workspace.id, active.user.id);
  if (membership?.role !== 'admin') {
    return messagePage(
      403,
      'Admins only',
      `Only admins of the workspace "${slug}" may see its settings. Ask one of them for what you need.`,
      { signedIn },
    );
  }
  if (ctx.req.method === 'POST' && !sameSecret(ctx.req.form.get('csrf'), active.session.csrfToken)) {
    return messagePage(
      403,
      'Form expired',
      'This form was not sent from this site, or your session changed since it was shown. Reload the page and try again.',
      { signedIn },
    );
  }
  return { workspace, userId: active.user.id, signedIn, session: active };
}

export const isReply = <Admitted extends object>(value: Admitted | Reply): value is Reply =>
  'status' in value;

/**
 * Admits a workspace admin to a page about one item (a member, a webhook): the admin and the
 * item `find` reads, or the reply that ends the request (sign-in, 403, or `notFound` for none).
 */
export async function admitToItem<Item>(
  ctx: AdminContext,
  slug: string,
  find: (admin: Admin) => Promise<Item | null>,
  notFound: (admin: Admin) => Reply,
): Promise<{ admin: Admin; item: Item } | Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const item = await find(admin);
  return item === null ? notFound(admin) : { admin, item };
}

/**
 * The context the API's operations run with for a page: the signed-in admin acts in their
 * workspace (signals name them as actor, with no token), in the page's transaction.
 */
export function adminOperations(ctx: AdminContext, admin: Admin, services: Services): OperationContext {
  return operationContext(
    ctx.tx,
    isoTime(ctx.nowMs),
    ctx.ids,
    {
      accountId: admin.workspace.accountId,
      workspaceId: admin.workspace.id,
      actor: { userId: admin.userId, tokenId: null },
    },
    null,
    services,
  );
}

/**
 * Where a sign-in without a target lands: the workspace the user administers that they joined
 * first. Not the oldest workspace: any workspace's admin may add a user by email, unasked, and a
 * sign-in must not land the user in a stranger's workspace rather than their own.
 */
export async function firstAdminWorkspace(ctx: AdminContext, userId: string): Promise<Workspace | null> {
  const memberships = await ctx.tx.tenancy.listUserMemberships(userId);
  const first = memberships.find((membership) => membership.role === 'admin');
  return first ? ctx.tx.tenancy.getWorkspace(first.workspaceId) : null;
}
