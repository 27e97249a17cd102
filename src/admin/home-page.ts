import type { Reply } from '../core/extension-kit.js';
import { isoTime, tokenIsLive } from '../core/extension-kit.js';
import { admitAdmin, isReply } from './admit.js';
import type { AdminContext } from './request.js';
import { homePage } from './views/home.js';

/** GET /{slug}/admin: the settings home, where sign-in lands. */
export async function showHome(ctx: AdminContext, slug: string): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const { workspace } = admin;
  const now = isoTime(ctx.nowMs);
  const tokens = await ctx.tx.tokens.list(workspace.id);
  const members = await ctx.tx.tenancy.listMembers({ workspaceId: workspace.id, limit: 1 });
  const admins = await ctx.tx.tenancy.listMembers({ workspaceId: workspace.id, role: 'admin', limit: 1 });
  const webhooks = await ctx.tx.webhooks.list({ accountId: workspace.accountId, limit: 1 });
  const disabled = await ctx.tx.webhooks.list({
    accountId: workspace.accountId,
    status: 'disabled',
    limit: 1,
  });
  return homePage({
    workspace,
    signedIn: admin.signedIn,
    counts: {
      liveTokens: tokens.filter((t) => tokenIsLive(t, now)).length,
      members: members.total,
      admins: admins.total,
      webhooks: webhooks.total,
      disabledWebhooks: disabled.total,
    },
  });
}
