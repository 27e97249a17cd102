import { z } from 'zod';
import { initWorkspace, workspaceSlugPattern } from '../../core/tenancy/operations.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import type { CliIo } from '../io.js';
import { readPasswordHash } from '../password.js';
import { tenancyDeps } from '../tenancy.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('Slug of the new workspace (a-z, 0-9, -)'),
    adminEmail: { type: 'string', value: '<email>', description: "The workspace admin's email" },
    account: { type: 'string', value: '<name>', description: 'Name of the new account (default: the slug)' },
    adminPasswordStdin: {
      type: 'boolean',
      description: "Read the admin's password (for the admin pages) from the first line of stdin",
    },
    ...commonFlags,
  },
  schema: z.strictObject({
    // Checked here too, so a malformed slug is a usage error (exit 2) like any other bad flag value.
    workspace: z
      .string()
      .regex(workspaceSlugPattern, 'expected a slug: a-z, 0-9 and "-" inside, at most 63 characters'),
    adminEmail: emailAddress,
    account: z.string().min(1).optional(),
    adminPasswordStdin: z.boolean().default(false),
    ...commonOptions,
  }),
  notes: [
    'Creates the account, the workspace, its admin and a read_write API token for the admin,',
    'and prints the token once. Fails when the workspace already exists.',
  ],
  async run(input, io: CliIo) {
    const passwordHash = input.adminPasswordStdin ? await readPasswordHash(io) : null;
    const result = await withDatabase(io, input.db, { create: true }, ({ storage }) =>
      storage.transaction((tx) =>
        initWorkspace(tenancyDeps(tx), {
          slug: input.workspace,
          adminEmail: input.adminEmail,
          passwordHash,
          ...(input.account ? { accountName: input.account } : {}),
        }),
      ),
    );
    if (input.json) return io.out(JSON.stringify(result));
    io.out(
      `Created workspace "${result.workspaceSlug}" (${result.workspaceId}) in account ${result.accountId}.`,
    );
    io.out(`Admin: ${input.adminEmail} (${result.userId})`);
    io.out(`API token (read_write, shown only now): ${result.token}`);
  },
});
