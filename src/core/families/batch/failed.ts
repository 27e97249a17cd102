import { ApiError } from '../../errors.js';
import type { BatchOperation } from './schema.js';

/**
 * The answer to a batch one of whose operations failed: that operation's problem, as its status,
 * with `failedIndex` and the outcome of every operation. Thrown, so the batch's transaction rolls
 * back: what the operations before it did is undone, those after it never ran.
 */
export function batchFailed(
  operations: readonly BatchOperation[],
  done: readonly unknown[],
  error: ApiError,
): ApiError {
  const failedIndex = done.length;
  const outcomes = operations.map((_, index) =>
    index < failedIndex
      ? { outcome: 'rolled_back', status: (done[index] as { status?: number } | undefined)?.status }
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
