import { z } from 'zod';
import { maxBatchOperations } from '../../pipeline/batch.js';
import { urlFlaw } from '../../pipeline/well-formed-text.js';

/** At most this many operations in one batch (issue 38). */

/** The methods a batch may hold: changes only (a read in a transaction that then rolls back says nothing). */
export const batchMethods = ['POST', 'PATCH', 'DELETE'] as const;

/** A path naming the batch endpoint itself, however spelled (trailing slashes, a query). */
const isBatchPath = (path: string) => /^\/batch\/*(?:[?#]|$)/.test(path);

/** Whether a path holds a `.` or `..` segment (before its query). */
const hasDotSegment = (path: string) => /(^|\/)\.{1,2}(\/|$)/.test(path.split(/[?#]/)[0] ?? path);

/** A path segment that is not `.` or `..` (written without lookaheads, which generators of matching text lack). */
const segment = String.raw`(?:[^/?#.][^/?#]*|\.[^/?#.][^/?#]*|\.\.[^/?#]+)`;

/**
 * Both path rules as the one pattern the document states: under /api/v1 (a first segment that is
 * not empty) and no `.` or `..` segment before the query. The refinement before it only names the
 * dot rule when that is the one broken.
 */
const operationPath = new RegExp(String.raw`^/${segment}(?:/${segment}?)*(?:[?#][\s\S]*)?$`);

export const batchOperationSchema = z.strictObject({
  method: z.enum(batchMethods, {
    error: 'only POST, PATCH and DELETE operations can be batched (a GET cannot)',
  }),
  path: z
    .string()
    .min(2)
    .max(2000)
    // Checked as a request's own path and query: what no value of the API holds (a NUL, a lone
    // surrogate, escapes that are not UTF-8) never reaches a handler or the storage.
    .refine((path) => urlFlaw(path) === null, {
      error: (issue) => `a path without ${urlFlaw(String(issue.input))}, which no value of the API has`,
      abort: true,
    })
    // `.` and `..` segments would name another path than the one written (a client resolves
    // them before a request is sent; an operation is never resolved): refused, not guessed.
    .refine((path) => !hasDotSegment(path), { error: 'a path without "." or ".." segments', abort: true })
    .regex(operationPath, 'a path under /api/v1 relative to it, such as "/issues/{id}"')
    .refine((path) => !isBatchPath(path), 'a batch cannot hold another batch')
    .describe('The path under /api/v1, e.g. `/issues` or `/issues/APO-12/transition`'),
  body: z.unknown().optional().describe('The JSON body the request alone would send'),
  ifMatch: z.string().max(1000).optional().describe('The If-Match the request alone would send'),
});
export type BatchOperation = z.output<typeof batchOperationSchema>;

export const batchRequestSchema = z.strictObject({
  operations: z
    .array(batchOperationSchema)
    .min(1)
    .max(maxBatchOperations)
    .describe(`Up to ${maxBatchOperations} operations, run in order in one transaction`),
});
export type BatchRequest = z.output<typeof batchRequestSchema>;

/** What one operation answered, as it would have alone. */
export const batchResultSchema = z.strictObject({
  status: z.number().int().describe('The status the request alone would have answered'),
  body: z.unknown().optional().describe('Its body (absent for a 204)'),
  etag: z.string().optional().describe('Its ETag, when it answered one'),
  location: z.string().optional().describe('Its Location, for a create'),
});

export const batchResponseSchema = z.strictObject({
  results: z.array(batchResultSchema).describe('One result per operation, in order'),
});
