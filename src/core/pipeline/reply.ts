import type { ApiError } from '../errors.js';
import type { Storage, StorageTx, StoredJson } from '../port/index.js';
import { etagFor } from './conditional.js';

/** What a route handler answers; the pipeline serializes it and adds the common headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * What a replay of this answer (same Idempotency-Key) shows instead of `body`, and so what is
   * stored with the key: a create that shows a secret once stores its answer without it.
   */
  replayBody?: unknown;
  /**
   * Work that must not hold the transaction open (network I/O), run once it has committed;
   * its reply is the answer.
   */
  after?: (deps: AfterCommitDeps) => Promise<Reply>;
  /**
   * The JSON body already serialized (a stored resource, see Collection.getJson), sent as it is
   * in place of `body`.
   */
  json?: string;
  /** A body that is not JSON (the API reference page), sent as it is. */
  text?: { contentType: string; body: string };
  /** A streamed body (server-sent events), started once the transaction has committed. */
  streamFrom?: (deps: AfterCommitDeps) => AsyncIterable<string>;
}

export interface AfterCommitDeps {
  storage: Storage;
  nowMs(): number;
  /** Resolves at the next committed change of the request's account, or after `timeoutMs`. */
  waitForChange(timeoutMs: number): Promise<void>;
  /**
   * Whether the request's token still grants what its route needs, read in `tx` (authority.ts):
   * null when it does (always, for a request without a token), else why not.
   */
  grantLost(tx: StorageTx): Promise<ApiError | null>;
}

/** 200 with a single versioned resource and its ETag. */
export const resource = (body: { version: number }, status = 200): Reply => ({
  status,
  body,
  headers: { ETag: etagFor(body.version) },
});

/** A stored resource, already serialized (Collection.getJson), with its ETag. */
export const storedResource = (stored: StoredJson): Reply => ({
  status: 200,
  json: stored.json,
  headers: { ETag: etagFor(stored.version) },
});

export const ok = (body: unknown): Reply => ({ status: 200, body });

export const noContent = (): Reply => ({ status: 204 });
