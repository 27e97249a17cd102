import { z } from 'zod';
import { idByEmail, update as updateMember } from '../../core/families/members/api.js';
import { roles } from '../../core/model.js';
import { workspaceBySlug } from '../../core/tenancy/operations.js';
import { createTracker } from '../../core/tracker.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { memberView } from '../members.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace of the member'),
    email: { type: 'string', value: '<email>', description: "The member's email" },
    role: { type: 'string', value: '<admin|member|viewer>', description: 'The new role' },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    email: emailAddress,
    role: z.enum(roles),
    ...commonOptions,
  }),
  notes: [
    "The member's tokens act with the new role from their next request on.",
    "The workspace's last admin cannot be demoted: make another member an admin first.",
  ],
  async run(input, io) {
    const member = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      createTracker({ storage, rateLimit: false }).run({ workspaceSlug: input.workspace }, async (ctx) => {
        const id = await idByEmail(ctx, input.email);
        const updated = await updateMember(ctx, id, { role: input.role });
        return memberView(updated, await workspaceBySlug(ctx.tx, input.workspace));
      }),
    );
    if (input.json) return io.out(JSON.stringify(member));
    io.out(`${member.email} is now ${member.role} in workspace "${member.workspaceSlug}".`);
  },
});
