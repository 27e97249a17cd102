import { z } from 'zod';
import { tokenScopes, type Workspace } from '../model.js';
import type { Reply } from '../pipeline/reply.js';
import { issueToken } from '../tenancy/operations.js';
import { messagePage, redirect, type SignedIn } from './layout.js';
import { signInUrl } from './next-path.js';
import type { AdminContext } from './request.js';
import { sameSecret } from './secrets.js';
import { currentSession } from './sessions.js';
import { type TokenRow, tokenCreatedPage, tokensPage, tokensPath } from './views/tokens.js';

/** A signed-in admin of the workspace, allowed to manage its tokens. */
interface Admin {
  workspace: Workspace;
  userId: string;
  signedIn: SignedIn;
}

/**
 * Who may see a workspace's token page: a signed-in admin of that workspace. Anyone else gets
 * the reply instead: signed-out visitors go to sign-in and come back here, members, viewers and
 * other workspaces' admins get 403, an unknown workspace 404; a POST also needs the session's
 * CSRF token.
 */
async function admitAdmin(ctx: AdminContext, slug: string): Promise<Admin | Reply> {
  const active = await currentSession(ctx.tx, ctx.req.cookies, ctx.nowMs);
  if (!active) return redirect(signInUrl(`/${slug}/admin/api-tokens`));
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
      `Only admins of the workspace "${slug}" may manage its API tokens. Ask one of them for a token.`,
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
  return { workspace, userId: active.user.id, signedIn };
}

const isReply = (value: Admin | Reply): value is Reply => 'status' in value;

/** The workspace's tokens with their owners' emails, newest first. */
async function tokenRows(ctx: AdminContext, workspace: Workspace): Promise<TokenRow[]> {
  const tokens = await ctx.tx.tokens.list(workspace.id);
  const emails = new Map<string, string | null>();
  for (const token of tokens) {
    if (!emails.has(token.userId)) {
      emails.set(token.userId, (await ctx.tx.tenancy.getUser(token.userId))?.email ?? null);
    }
  }
  return tokens.map((token) => ({ token, ownerEmail: emails.get(token.userId) ?? null }));
}

/** GET /{slug}/admin/api-tokens */
export async function showTokens(ctx: AdminContext, slug: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const revokedId = ctx.req.query.get('revoked');
  const rows = await tokenRows(ctx, admin.workspace);
  const revoked = rows.find((r) => r.token.id === revokedId && r.token.revokedAt !== null);
  return tokensPage({
    workspace: admin.workspace,
    rows,
    signedIn: admin.signedIn,
    ...(revoked ? { notice: `Token "${revoked.token.name}" was revoked.` } : {}),
  });
}

const newTokenForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the token a name.')
    .max(100, 'Token names are at most 100 characters.'),
  scope: z.enum(tokenScopes, { error: 'Choose the scope read or read_write.' }),
});

/** POST /{slug}/admin/api-tokens: issues a token for the signed-in admin and shows it once. */
export async function createToken(ctx: AdminContext, slug: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const submitted = { name: ctx.req.form.get('name') ?? '', scope: ctx.req.form.get('scope') ?? '' };
  const parsed = newTokenForm.safeParse(submitted);
  if (!parsed.success) {
    return tokensPage({
      workspace: admin.workspace,
      rows: await tokenRows(ctx, admin.workspace),
      signedIn: admin.signedIn,
      status: 400,
      error: parsed.error.issues.map((issue) => issue.message).join(' '),
      form: submitted,
    });
  }
  const issued = await issueToken(
    { tx: ctx.tx, ids: ctx.ids, now: ctx.nowMs },
    { workspaceId: admin.workspace.id, userId: admin.userId, ...parsed.data },
  );
  return tokenCreatedPage({
    workspace: admin.workspace,
    token: issued.token,
    plain: issued.plain,
    signedIn: admin.signedIn,
  });
}

/** POST /{slug}/admin/api-tokens/{id}/revoke: revokes at once; the API refuses the token from then on. */
export async function revokeToken(ctx: AdminContext, slug: string, tokenId: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const token = await ctx.tx.tokens.get(tokenId);
  if (!token || token.workspaceId !== admin.workspace.id) {
    return messagePage(404, 'Token not found', 'This workspace has no token with that id.', {
      signedIn: admin.signedIn,
    });
  }
  await ctx.tx.tokens.revoke(token.id, new Date(ctx.nowMs).toISOString());
  return redirect(`${tokensPath(admin.workspace)}?revoked=${encodeURIComponent(token.id)}`);
}
