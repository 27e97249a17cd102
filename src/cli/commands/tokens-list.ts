import { z } from 'zod';
import type { ApiToken, StorageTx, Workspace } from '../../core/index.js';
import { workspaceBySlug } from '../../core/tenancy/operations.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { withDatabase } from '../database.js';
import { table, tokenView } from '../views.js';

/** The workspaces to list: the one named, or every one (a database made by `serve` has `default`). */
async function workspacesToList(tx: StorageTx, slug: string | undefined): Promise<Workspace[]> {
  return slug === undefined ? tx.tenancy.listWorkspaces() : [await workspaceBySlug(tx, slug)];
}

export const command = defineCommand({
  flags: {
    workspace: {
      type: 'string',
      value: '<slug>',
      description: 'The workspace whose tokens to list (default: every workspace)',
    },
    ...commonFlags,
  },
  schema: z.strictObject({ workspace: z.string().optional(), ...commonOptions }),
  notes: ['Lists every token of the workspace (or of every workspace), newest first, revoked ones included.'],
  async run(input, io) {
    const listed = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(
        async (tx) => {
          const rows: { workspace: Workspace; token: ApiToken }[] = [];
          for (const workspace of await workspacesToList(tx, input.workspace)) {
            for (const token of await tx.tokens.list(workspace.id)) rows.push({ workspace, token });
          }
          // Newest first across workspaces too, as each workspace's own list is.
          return rows.sort(
            (a, b) =>
              b.token.createdAt.localeCompare(a.token.createdAt) || b.token.id.localeCompare(a.token.id),
          );
        },
        { mode: 'read' },
      ),
    );
    const tokens = listed.map(({ token }) => tokenView(token));
    if (input.json) return io.out(JSON.stringify({ data: tokens }));
    if (tokens.length === 0) {
      return io.out(
        input.workspace ? `Workspace "${input.workspace}" has no tokens.` : 'There are no tokens.',
      );
    }
    const rows = listed.map(({ workspace, token }) => {
      const t = tokenView(token);
      return [
        t.id,
        workspace.slug,
        t.name,
        t.scope,
        t.userId,
        `…${t.lastFour}`,
        t.createdAt,
        t.lastUsedAt ?? '-',
        t.revokedAt ?? '-',
        t.expiresAt ?? 'never',
      ];
    });
    const header = [
      'ID',
      'WORKSPACE',
      'NAME',
      'SCOPE',
      'USER',
      'ENDS',
      'CREATED',
      'LAST USED',
      'REVOKED',
      'EXPIRES',
    ];
    for (const line of table(header, rows)) io.out(line);
  },
});
