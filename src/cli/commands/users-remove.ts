import { z } from 'zod';
import { get as getMember, idByEmail, remove as removeMember } from '../../core/families/members/api.js';
import { workspaceBySlug } from '../../core/tenancy/operations.js';
import { createTracker } from '../../core/tracker.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { memberView } from '../members.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace to remove the member from'),
    email: { type: 'string', value: '<email>', description: "The member's email" },
    ...commonFlags,
  },
  schema: z.strictObject({ workspace: z.string(), email: emailAddress, ...commonOptions }),
  notes: [
    "The member's tokens in this workspace are revoked: they answer 401 from the next request on.",
    'The user stays (other workspaces keep them). The last admin cannot be removed.',
  ],
  async run(input, io) {
    const removed = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      createTracker({ storage, rateLimit: false }).run({ workspaceSlug: input.workspace }, async (ctx) => {
        const id = await idByEmail(ctx, input.email);
        const member = await getMember(ctx, id);
        await removeMember(ctx, id);
        return memberView(member, await workspaceBySlug(ctx.tx, input.workspace));
      }),
    );
    if (input.json) return io.out(JSON.stringify(removed));
    io.out(
      `Removed ${removed.email} from workspace "${removed.workspaceSlug}"; their tokens there are revoked.`,
    );
  },
});
