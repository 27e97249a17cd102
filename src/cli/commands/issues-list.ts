import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { listIssues } from '../../core/families/issues/operations.js';
import { issueListQuerySchema } from '../../core/families/issues/schema.js';
import { createTracker } from '../../core/tracker.js';
import { commonFlags, commonOptions, defineCommand, workspaceFlag } from '../command.js';
import { withDatabase } from '../database.js';
import { UsageError } from '../errors.js';

export const command = defineCommand({
  flags: {
    workspace: workspaceFlag('The workspace whose issues are listed'),
    query: {
      type: 'string',
      value: '<query>',
      description: 'The query language of GET /issues?query=, e.g. "status:open label:bug sort:updated-desc"',
    },
    limit: { type: 'string', value: '<n>', description: 'At most this many issues (1 to 100, default 20)' },
    cursor: { type: 'string', value: '<cursor>', description: "The previous page's nextCursor" },
    ...commonFlags,
  },
  schema: z.strictObject({
    workspace: z.string(),
    query: z.string().optional(),
    limit: z.string().optional(),
    cursor: z.string().optional(),
    ...commonOptions,
  }),
  async run(input, io) {
    // The list's own query schema and operation, so the CLI and GET /issues read a query alike.
    const { workspace, db, json, ...fields } = input;
    const parsed = issueListQuerySchema.safeParse(
      Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    );
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`--${String(issue?.path[0] ?? 'query')}: ${issue?.message ?? 'invalid value'}`);
    }
    const page = await withDatabase(io, db, { create: false }, ({ storage }) =>
      createTracker({ storage, rateLimit: false })
        .run({ workspaceSlug: workspace }, (ctx) => listIssues(ctx, parsed.data))
        .catch((error: unknown) => {
          // A malformed query names its term and offset, as the API's 400 does.
          if (error instanceof ApiError && error.code === 'validation_failed') {
            const [first] = (error.extras.issues ?? []) as {
              message?: string;
              term?: string;
              offset?: number;
            }[];
            const at = first?.term !== undefined ? ` (term "${first.term}" at offset ${first.offset})` : '';
            throw new UsageError(`--query: ${first?.message ?? error.detail}${at}`);
          }
          throw error;
        }),
    );
    if (json) return io.out(JSON.stringify(page));
    for (const issue of page.data) {
      io.out(`${issue.key}\t${issue.status}\t${issue.severity}\t${issue.title}`);
    }
    io.out(
      `${page.data.length} of ${page.total} issue${page.total === 1 ? '' : 's'}` +
        (page.nextCursor ? ` (next page: --cursor ${page.nextCursor})` : ''),
    );
  },
});
