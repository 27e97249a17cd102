import { z } from 'zod';
import { tokenScopes } from '../../core/model.js';
import { issueToken, workspaceBySlug } from '../../core/tenancy/operations.js';
import { commonFlags, commonOptions, defineCommand, emailAddress, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import { tenancyDeps } from '../tenancy.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace the token works in'),
    user: { type: 'string', value: '<email>', description: 'The member the token acts for' },
    name: { type: 'string', value: '<name>', description: 'A name to recognise the token by' },
    scope: { type: 'string', value: '<read|read_write>', description: 'What the token may do' },
    expiresInDays: {
      type: 'string',
      value: '<days>',
      description: 'Days until the token expires, 1 to 3650 (default: it never expires)',
    },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    user: emailAddress,
    name: z.string().trim().min(1, 'must not be empty').max(200),
    scope: z.enum(tokenScopes),
    expiresInDays: z.coerce
      .number({ error: 'expected a number of days' })
      .int('expected a whole number of days')
      .min(1, 'expected at least 1 day')
      .max(3650, 'expected at most 3650 days')
      .optional(),
    ...commonOptions,
  }),
  notes: [
    "The token is printed only now. Its power is the scope and the user's role, whichever is less.",
    'With --expires-in-days the API refuses it (401) from that time on; --json then adds expiresAt.',
  ],
  async run(input, io) {
    const issued = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(async (tx) => {
        const workspace = await workspaceBySlug(tx, input.workspace);
        const user = await tx.tenancy.getUserByEmail(input.user);
        const member = user && (await tx.tenancy.getMembership(workspace.id, user.id));
        if (!user || !member) {
          throw new CliError(`${input.user} is not a member of workspace "${workspace.slug}" (users create)`);
        }
        return issueToken(tenancyDeps(tx), {
          workspaceId: workspace.id,
          accountId: workspace.accountId,
          userId: user.id,
          name: input.name,
          scope: input.scope,
          expiresInDays: input.expiresInDays ?? null,
        });
      }),
    );
    const { token, plain } = issued;
    if (input.json) {
      const expiry = token.expiresAt === null ? {} : { expiresAt: token.expiresAt };
      return io.out(
        JSON.stringify({ id: token.id, token: plain, scope: token.scope, name: token.name, ...expiry }),
      );
    }
    io.out(`Created token "${token.name}" (${token.id}, ${token.scope}) for ${input.user}.`);
    if (token.expiresAt !== null) io.out(`It expires at ${token.expiresAt}.`);
    io.out(`Token (shown only now): ${plain}`);
  },
});
