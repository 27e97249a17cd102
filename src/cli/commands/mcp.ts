import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { createTracker } from '../../core/tracker.js';
import { currentPrincipal } from '../../mcp/principal.js';
import { serveStdio } from '../../mcp/stdio.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { databasePath } from '../database.js';
import { CliError } from '../errors.js';
import { toolsetsFlag, toolsetsOption } from '../toolsets-flag.js';

export const command = defineCommand({
  flags: {
    token: {
      type: 'string',
      value: '<token>',
      description: 'The API token every tool call acts as (its workspace, role and scope)',
      env: ['OUTCOME_TRACKER_TOKEN'],
      whenMissing: 'the API token the tools act as (make one with `outcome-tracker tokens create`)',
    },
    toolsets: toolsetsFlag('OUTCOME_TRACKER_TOOLSETS'),
    ...commonFlags,
  },
  schema: z.strictObject({
    token: z.string({ error: 'is required (or set OUTCOME_TRACKER_TOKEN)' }).min(1, 'must not be empty'),
    toolsets: toolsetsOption,
    ...commonOptions,
  }),
  notes: [
    'Serves the Model Context Protocol over standard input and output, for an MCP client that starts',
    'this command (see docs/mcp.md). Every tool call goes through the API pipeline as the token: the',
    'same scopes, rate limit (100 requests a minute), idempotency and version checks. Standard output',
    'carries only protocol messages; errors go to standard error. It ends when the client closes its input.',
    'Webhook deliveries its changes cause are sent by a running `outcome-tracker serve` on the same database.',
    'It serves the default toolsets (25 tools) unless --toolsets names others: `--toolsets default,comments`, `all`.',
  ],
  async run(input, io) {
    const db = await io.openDatabase(databasePath(input.db, io.env), { create: false });
    const tracker = createTracker({
      storage: db.storage,
      onError: (error, requestId) =>
        io.err(`request ${requestId} failed: ${error instanceof Error ? error.message : String(error)}`),
    });
    try {
      // A bad token is refused at once, not at the client's first call.
      const principal = await currentPrincipal(tracker, input.token);
      if (principal instanceof ApiError) throw new CliError(`the token is refused: ${principal.detail}`);
      await serveStdio(tracker, {
        token: input.token,
        ...(input.toolsets !== undefined ? { toolsets: input.toolsets } : {}),
        onRevoked: (problem) => io.err(`subscriptions ended: ${problem.detail}`),
        onError: (error) => io.err(`mcp: ${error instanceof Error ? error.message : String(error)}`),
      });
    } finally {
      await tracker.close();
    }
  },
});
