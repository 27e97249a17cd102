import { z } from 'zod';
import type { Reply } from '../core/extension-kit.js';
import {
  isoTime,
  issueToken,
  tokenLifetimesInDays,
  tokenScopes,
  type Workspace,
} from '../core/extension-kit.js';
import { admitAdmin, isReply } from './admit.js';
import { leaveFlash, withFlash } from './flash.js';
import { messagePage, redirect } from './layout.js';
import type { AdminContext } from './request.js';
import { revokeTokenPage, type TokenRow, tokensPage, tokensPath } from './views/tokens.js';

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

/**
 * GET /{slug}/admin/api-tokens. After a create (`?created=<id>`), the new token is taken from the
 * session's flash and shown this once; a reload finds the flash gone and shows only the list.
 */
export async function showTokens(ctx: AdminContext, slug: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const rows = await tokenRows(ctx, admin.workspace);
  const base = { workspace: admin.workspace, rows, signedIn: admin.signedIn, now: isoTime(ctx.nowMs) };
  const revokedId = ctx.req.query.get('revoked');
  const revoked = rows.find((r) => r.token.id === revokedId && r.token.revokedAt !== null);
  if (revoked) return tokensPage({ ...base, notice: `Token "${revoked.token.name}" was revoked.` });
  const createdId = ctx.req.query.get('created');
  const created = rows.find((r) => r.token.id === createdId);
  if (!created) return tokensPage(base);
  return withFlash(ctx, admin, (flash) =>
    flash?.kind === 'token' && flash.tokenId === created.token.id
      ? tokensPage({ ...base, created: { token: created.token, plain: flash.plain } })
      : tokensPage({
          ...base,
          notice: `Token "${created.token.name}" was created. Its value was shown once, when it was made, and cannot be shown again.`,
        }),
  );
}

const newTokenForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the token a name.')
    .max(100, 'Token names are at most 100 characters.'),
  scope: z.enum(tokenScopes, { error: 'Choose the scope read or read_write.' }),
  expiresInDays: z.enum(['', ...tokenLifetimesInDays.map(String)], {
    error: 'Choose when the token expires: in 7, 30 or 90 days, or never.',
  }),
});

/**
 * POST /{slug}/admin/api-tokens: issues a token for the signed-in admin, leaves it in the
 * session's flash and redirects (Post/Redirect/Get), so a reload never makes a second token.
 */
export async function createToken(ctx: AdminContext, slug: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const submitted = {
    name: ctx.req.form.get('name') ?? '',
    scope: ctx.req.form.get('scope') ?? '',
    expiresInDays: ctx.req.form.get('expiresInDays') ?? '',
  };
  const parsed = newTokenForm.safeParse(submitted);
  if (!parsed.success) {
    return tokensPage({
      workspace: admin.workspace,
      rows: await tokenRows(ctx, admin.workspace),
      signedIn: admin.signedIn,
      now: isoTime(ctx.nowMs),
      status: 400,
      error: parsed.error.issues.map((issue) => issue.message).join(' '),
      form: submitted,
    });
  }
  const { name, scope, expiresInDays } = parsed.data;
  const issued = await issueToken(
    { tx: ctx.tx, ids: ctx.ids, now: ctx.nowMs },
    {
      workspaceId: admin.workspace.id,
      accountId: admin.workspace.accountId,
      userId: admin.userId,
      name,
      scope,
      expiresInDays: expiresInDays === '' ? null : Number(expiresInDays),
    },
  );
  await leaveFlash(ctx, admin, { kind: 'token', tokenId: issued.token.id, plain: issued.plain });
  return redirect(`${tokensPath(admin.workspace)}?created=${encodeURIComponent(issued.token.id)}`);
}

async function tokenOr404(ctx: AdminContext, workspace: Workspace, tokenId: string) {
  const token = await ctx.tx.tokens.get(tokenId, workspace.id);
  if (!token || token.workspaceId !== workspace.id) return null;
  const owner = await ctx.tx.tenancy.getUser(token.userId);
  return { token, ownerEmail: owner?.email ?? null };
}

/** GET /{slug}/admin/api-tokens/{id}/revoke: asks for confirmation (no JavaScript needed). */
export async function confirmRevokeToken(ctx: AdminContext, slug: string, tokenId: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const row = await tokenOr404(ctx, admin.workspace, tokenId);
  if (!row) return tokenNotFound(admin.signedIn);
  if (row.token.revokedAt) return redirect(`${tokensPath(admin.workspace)}?revoked=${row.token.id}`);
  return revokeTokenPage({ workspace: admin.workspace, row, signedIn: admin.signedIn });
}

const tokenNotFound = (signedIn: { email: string; csrfToken: string }) =>
  messagePage(404, 'Token not found', 'This workspace has no token with that id.', { signedIn });

/** POST /{slug}/admin/api-tokens/{id}/revoke: revokes at once; the API refuses the token from then on. */
export async function revokeToken(ctx: AdminContext, slug: string, tokenId: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const row = await tokenOr404(ctx, admin.workspace, tokenId);
  if (!row) return tokenNotFound(admin.signedIn);
  await ctx.tx.tokens.revoke(row.token.id, isoTime(ctx.nowMs), admin.workspace.id);
  return redirect(`${tokensPath(admin.workspace)}?revoked=${encodeURIComponent(row.token.id)}`);
}
