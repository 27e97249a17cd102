import { ApiError } from '../../errors.js';
import { maxBatchOperations } from '../../pipeline/batch.js';
import { readIdempotencyKey } from '../../pipeline/idempotency.js';
import type { Reply } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { batchExamples } from './examples.js';
import { type BatchOperation, batchRequestSchema, batchResponseSchema } from './schema.js';

/** What one operation answered, in the batch's answer. */
interface BatchResult {
  status: number;
  body?: unknown;
  etag?: string;
  location?: string;
}

function resultOf(reply: Reply): BatchResult {
  const result: BatchResult = { status: reply.status };
  const body = reply.json !== undefined ? (JSON.parse(reply.json) as unknown) : reply.body;
  if (body !== undefined && reply.status !== 204) result.body = body;
  if (reply.headers?.ETag) result.etag = reply.headers.ETag;
  if (reply.headers?.Location) result.location = reply.headers.Location;
  return result;
}

/**
 * The answer to a batch one of whose operations failed: that operation's problem, as its status,
 * with `failedIndex` and the outcome of every operation. Thrown, so the batch's transaction rolls
 * back: what the operations before it did is undone, those after it never ran.
 */
function batchFailed(operations: readonly BatchOperation[], done: BatchResult[], error: ApiError): ApiError {
  const failedIndex = done.length;
  const outcomes = operations.map((_, index) =>
    index < failedIndex
      ? { outcome: 'rolled_back', status: done[index]?.status }
      : index === failedIndex
        ? { outcome: 'failed', status: error.status, body: error.toProblem() }
        : { outcome: 'not_run' },
  );
  return new ApiError(
    error.status,
    error.code,
    `Operation ${failedIndex} (${operations[failedIndex]?.method} ${operations[failedIndex]?.path}) failed, so none was applied: ${error.detail}`,
    { ...error.extras, failedIndex, operations: outcomes },
  );
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
    description: `Runs up to ${maxBatchOperations} operations (\`POST\`, \`PATCH\` or \`DELETE\` on a path under /api/v1, with its \`body\` and \`ifMatch\`) in order, in one transaction. Each is validated, authorized and answered as the request alone would be, and writes the same signals. Either all apply (200, \`results\` in order, each with its \`status\`, \`body\`, \`etag\`) or none does: the answer is then the failed operation's problem with its status, \`failedIndex\` and \`operations\` (each \`rolled_back\`, \`failed\` or \`not_run\`). Needs an Idempotency-Key, which covers every operation: a replay answers the same bytes. A GET or a nested batch is refused (400). Counts as its number of operations against the rate limit.`,
    examples: { request: batchExamples.request, response: batchExamples.response },
    body: batchRequestSchema,
    response: batchResponseSchema,
    handle: async (ctx, { body, headers }) => {
      // One key covers the creates inside, which alone would each need one.
      readIdempotencyKey(headers['idempotency-key'], true);
      const run = ctx.operations;
      if (!run) throw new Error('the batch route runs only in the request pipeline');
      const results: BatchResult[] = [];
      for (const operation of body.operations) {
        let reply: Reply;
        try {
          reply = await run(operation);
        } catch (error) {
          if (error instanceof ApiError) throw batchFailed(body.operations, results, error);
          throw error;
        }
        results.push(resultOf(reply));
      }
      return { status: 200, body: { results } };
    },
  }),
];
