import { z } from 'zod';
import { isoTime } from '../../core/runtime.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { withDatabase } from '../database.js';
import { CliError } from '../errors.js';
import { tokenView } from '../views.js';

export const command = defineCommand({
  positionals: ['id'],
  flags: { ...commonFlags },
  schema: z.strictObject({ id: z.string().regex(/^tok_/, 'expected a token id (tok_…)'), ...commonOptions }),
  notes: ['The token stops working at once. Revoking a revoked token changes nothing.'],
  async run(input, io) {
    const revoked = await withDatabase(io, input.db, { create: false }, ({ storage }) =>
      storage.transaction(async (tx) => {
        const token = await tx.tokens.revoke(input.id, isoTime(Date.now()));
        if (!token) throw new CliError(`no token ${input.id}`);
        return tokenView(token);
      }),
    );
    if (input.json) return io.out(JSON.stringify(revoked));
    io.out(`Revoked token "${revoked.name}" (${revoked.id}) at ${revoked.revokedAt}.`);
  },
});
