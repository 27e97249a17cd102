import { ApiError } from '../../errors.js';
import { batchFailed, maxBatchOperations } from '../../pipeline/batch.js';
import { readIdempotencyKey } from '../../pipeline/idempotency.js';
import type { Reply } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { batchExamples } from './examples.js';
import { batchRequestSchema, batchResponseSchema } from './schema.js';

/** What one operation answered, in the batch's answer. */
interface BatchResult {
  status: number;
  body?: unknown;
  etag?: string;
  location?: string;
}

/**
 * What one operation answered, as shown now and as a replay of the batch's key shows it: an
 * operation that shows a secret once (a webhook's, an invite's link) answers a replay without it,
 * as the request alone would, so the batch's stored answer never holds one.
 */
function resultsOf(reply: Reply): { shown: BatchResult; replayed: BatchResult } {
  const result: BatchResult = { status: reply.status };
  const body = reply.json !== undefined ? (JSON.parse(reply.json) as unknown) : reply.body;
  if (body !== undefined && reply.status !== 204) result.body = body;
  if (reply.headers?.ETag) result.etag = reply.headers.ETag;
  if (reply.headers?.Location) result.location = reply.headers.Location;
  const replayed = reply.replayBody === undefined ? result : { ...result, body: reply.replayBody };
  return { shown: result, replayed };
}

export const batchRoutes = [
  defineRoute({
    method: 'POST',
    path: '/batch',
    access: 'write',
    kind: 'action',
    runsOperations: true,
    operationId: 'runBatch',
    summary: 'Apply several changes at once, all or none',
    description: `Runs up to ${maxBatchOperations} operations (\`POST\`, \`PATCH\` or \`DELETE\` on a path under /api/v1, with its \`body\` and \`ifMatch\`) in order, in one transaction. Each is validated, authorized and answered as the request alone would be, and writes the same signals. Either all apply (200, \`results\` in order, each with its \`status\`, \`body\`, \`etag\`) or none does: the answer is then the failed operation's problem with its status, \`failedIndex\` and \`operations\` (each \`rolled_back\`, \`failed\` or \`not_run\`). Needs an Idempotency-Key, which covers every operation: a replay answers the same results, checks again that the caller may run each operation (403 as a first run would answer), and shows a secret an operation showed once (a webhook's \`secret\`, an invite's \`inviteUrl\`) as null, as that request's own replay does. A GET or a nested batch is refused (400). Counts as its number of operations against the rate limit.`,
    examples: { request: batchExamples.request, response: batchExamples.response },
    body: batchRequestSchema,
    response: batchResponseSchema,
    handle: async (ctx, { body, headers }) => {
      // One key covers the creates inside, which alone would each need one.
      readIdempotencyKey(headers['idempotency-key'], true);
      const run = ctx.operations;
      if (!run) throw new Error('the batch route runs only in the request pipeline');
      const results: BatchResult[] = [];
      const replayed: BatchResult[] = [];
      for (const operation of body.operations) {
        let reply: Reply;
        try {
          reply = await run(operation);
        } catch (error) {
          if (error instanceof ApiError) throw batchFailed(body.operations, results, error);
          throw error;
        }
        const { shown, replayed: asReplayed } = resultsOf(reply);
        results.push(shown);
        replayed.push(asReplayed);
      }
      const hidden = replayed.some((result, index) => result !== results[index]);
      return { status: 200, body: { results }, ...(hidden ? { replayBody: { results: replayed } } : {}) };
    },
  }),
];
