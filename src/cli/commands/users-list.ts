import { z } from 'zod';
import { list as listMembers } from '../../core/families/members/api.js';
import type { MemberView } from '../../core/families/members/operations.js';
import { maxPageSize } from '../../core/pipeline/pagination.js';
import { workspaceBySlug } from '../../core/tenancy/operations.js';
import { createTracker } from '../../core/tracker.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { withDatabase } from '../database.js';
import { type CliMemberView, memberView } from '../members.js';
import { table } from '../views.js';

export const command = defineCommand({
  flags: {
    workspace: {
      type: 'string',
      value: '<slug>',
      description: 'The workspace whose members to list (default: every workspace)',
    },
    ...commonFlags,
  },
  schema: z.strictObject({ workspace: z.string().optional(), ...commonOptions }),
  notes: [
    'Lists members newest first with their role, live token count and last activity',
    '(the latest use of one of their tokens in the workspace).',
  ],
  async run(input, io) {
    const members = await withDatabase(io, input.db, { create: false }, async ({ storage }) => {
      const tracker = createTracker({ storage, rateLimit: false });
      const slugs =
        input.workspace === undefined
          ? (await storage.transaction((tx) => tx.tenancy.listWorkspaces(), { mode: 'read' })).map(
              (w) => w.slug,
            )
          : [input.workspace];
      const out: CliMemberView[] = [];
      for (const slug of slugs) {
        await tracker.run({ workspaceSlug: slug }, async (ctx) => {
          const workspace = await workspaceBySlug(ctx.tx, slug);
          let cursor: string | undefined;
          do {
            const page = await listMembers(ctx, { limit: maxPageSize, ...(cursor ? { cursor } : {}) });
            out.push(...page.data.map((m: MemberView) => memberView(m, workspace)));
            cursor = page.nextCursor ?? undefined;
          } while (cursor);
        });
      }
      return out;
    });
    if (input.json) return io.out(JSON.stringify({ data: members }));
    if (members.length === 0) {
      return io.out(
        input.workspace ? `Workspace "${input.workspace}" has no members.` : 'There are no members.',
      );
    }
    const rows = members.map((m) => [
      m.id,
      m.workspaceSlug,
      m.email,
      m.role,
      String(m.tokenCount),
      m.lastActiveAt ?? '-',
      m.createdAt,
    ]);
    for (const line of table(['ID', 'WORKSPACE', 'EMAIL', 'ROLE', 'TOKENS', 'LAST ACTIVE', 'JOINED'], rows)) {
      io.out(line);
    }
  },
});
