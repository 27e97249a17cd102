import { z } from 'zod';
import { roles } from '../../core/model.js';
import { createInvite } from '../../core/tenancy/invites.js';
import { workspaceBySlug } from '../../core/tenancy/operations.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import { tenancyDeps } from '../tenancy.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace the user joins'),
    email: { type: 'string', value: '<email>', description: "The user's email" },
    role: {
      type: 'string',
      value: '<admin|member|viewer>',
      description: "The user's role in the workspace (default: member)",
    },
    url: {
      type: 'string',
      value: '<url>',
      description: 'Where the server is reached, for the link (default: http://127.0.0.1:3000)',
    },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    email: emailAddress,
    role: z.enum(roles).default('member'),
    url: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3000'),
    ...commonOptions,
  }),
  notes: [
    'Adds the user to the workspace unless a member already, and prints a link, valid once for 7 days,',
    'with which they set their password. No email is sent: pass the link on. A user who already has a',
    'password is refused (exit 1): they sign in with it.',
  ],
  async run(input, io) {
    const invite = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(async (tx) => {
        const workspace = await workspaceBySlug(tx, input.workspace);
        return createInvite(tenancyDeps(tx), {
          workspaceId: workspace.id,
          email: input.email,
          role: input.role,
        });
      }),
    );
    if (!invite.ok) throw new CliError(`${input.email} already has a password: they sign in with it`);
    const link = `${input.url.replace(/\/+$/, '')}${invite.path}`;
    if (input.json) {
      return io.out(
        JSON.stringify({
          userId: invite.user.id,
          email: invite.user.email,
          link,
          expiresAt: invite.expiresAt,
        }),
      );
    }
    io.out(`Invite link for ${invite.user.email} (valid once, until ${invite.expiresAt}):`);
    io.out(link);
  },
});
