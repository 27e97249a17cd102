import { ApiError } from '../errors.js';
import type { TrackerRuntime } from './runtime.js';

/**
 * What an unexpected error answers: reported to the runtime's `onError` with the request id, and
 * a 500 that says nothing of it but that id, for the client to quote.
 */
export function internal(rt: TrackerRuntime, error: unknown, requestId: string): ApiError {
  rt.onError(error, requestId);
  return new ApiError(
    500,
    'internal_error',
    `Something went wrong on our side; quote request id ${requestId}.`,
  );
}
