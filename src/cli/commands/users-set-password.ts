import { z } from 'zod';
import { commonFlags, commonOptions, defineCommand, emailAddress } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import { readPasswordHash } from '../password.js';

export const command = defineCommand({
  flags: {
    email: { type: 'string', value: '<email>', description: "The user's email" },
    passwordStdin: { type: 'boolean', description: 'Read the new password from the first line of stdin' },
    ...commonFlags,
  },
  schema: z.strictObject({
    email: emailAddress,
    // Required so that a password never has to appear on the command line (and in shell history).
    passwordStdin: z.literal(true),
    ...commonOptions,
  }),
  notes: [
    'Example: printf "%s\\n" "$PASSWORD" | outcome-tracker users set-password --email a@b.c --password-stdin',
  ],
  async run(input, io) {
    const passwordHash = await readPasswordHash(io);
    const user = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(async (tx) => {
        const found = await tx.tenancy.getUserByEmail(input.email);
        if (!found) throw new CliError(`no user with email ${input.email}`);
        await tx.tenancy.updateUser({ ...found, passwordHash });
        return found;
      }),
    );
    if (input.json) return io.out(JSON.stringify({ id: user.id, email: user.email, passwordSet: true }));
    io.out(`Password set for ${user.email} (${user.id}).`);
  },
});
