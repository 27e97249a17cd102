import type { CallOptions, Transport } from './transport.js';
import type * as T from './types.js';

/** One operation of a batch: a POST, PATCH or DELETE on a path under /api/v1, e.g. `/issues/APO-12`. */
export type BatchOperation = T.Batch['operations'][number];

/**
 * `POST /batch`: up to 100 operations applied in one transaction, all or none. Resolves with
 * each operation's result in order; when one fails, rejects with an ApiError whose `problem` is
 * that operation's, with `failedIndex` and every operation's outcome (none applied). The call's
 * one Idempotency-Key covers every operation, so a retry never applies them twice.
 */
export type BatchApi = (operations: BatchOperation[], options?: CallOptions) => Promise<T.BatchResults>;

export function batchApi(t: Transport): BatchApi {
  return async (operations, options) =>
    (await t.send<T.BatchResults>({ method: 'POST', path: '/batch', body: { operations }, options })).body;
}
