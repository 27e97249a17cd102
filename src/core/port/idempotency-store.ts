import type { IdempotencyRecord } from '../model.js';

export interface IdempotencyStore {
  /** The record for (workspace, key), whatever its age: callers judge expiry. */
  get(workspaceId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Stores the record, replacing one for the same (workspace, key) only when that one was
   * created before `replaceIfBefore` (expired). Concurrency contract: of concurrent puts of
   * one live key exactly one succeeds; the others throw UniqueViolation('idempotency.key').
   */
  put(record: IdempotencyRecord, replaceIfBefore: string): Promise<void>;
  /** Deletes records created before `before`; returns how many. */
  purge(before: string): Promise<number>;
}
