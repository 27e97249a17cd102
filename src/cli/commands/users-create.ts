import { z } from 'zod';
import { roles } from '../../core/model.js';
import { addMember, workspaceBySlug } from '../../core/tenancy/operations.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import { readPasswordHash } from '../password.js';
import { tenancyDeps } from '../tenancy.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace the user joins'),
    email: { type: 'string', value: '<email>', description: "The user's email" },
    role: { type: 'string', value: '<admin|member|viewer>', description: "The user's role in the workspace" },
    passwordStdin: {
      type: 'boolean',
      description: "Read the user's password (for the admin pages) from the first line of stdin",
    },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    email: emailAddress,
    role: z.enum(roles),
    passwordStdin: z.boolean().default(false),
    ...commonOptions,
  }),
  notes: [
    'A user who already exists (in another workspace) joins this one; their password stays unless given.',
  ],
  async run(input, io) {
    const passwordHash = input.passwordStdin ? await readPasswordHash(io) : null;
    const view = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(async (tx) => {
        const workspace = await workspaceBySlug(tx, input.workspace);
        const existing = await tx.tenancy.getUserByEmail(input.email);
        const membership = existing && (await tx.tenancy.getMembership(workspace.id, existing.id));
        if (membership) {
          throw new CliError(
            `${input.email} is already a member of workspace "${workspace.slug}" (role ${membership.role})`,
          );
        }
        const { user } = await addMember(tenancyDeps(tx), {
          workspaceId: workspace.id,
          email: input.email,
          role: input.role,
          passwordHash,
        });
        return {
          id: user.id,
          email: user.email,
          workspaceId: workspace.id,
          role: input.role,
          passwordSet: user.passwordHash !== null,
          createdAt: user.createdAt,
        };
      }),
    );
    if (input.json) return io.out(JSON.stringify(view));
    io.out(`Added ${view.email} (${view.id}) to workspace "${input.workspace}" as ${view.role}.`);
    if (!view.passwordSet) io.out('No password set: the admin pages need one (users set-password).');
  },
});
