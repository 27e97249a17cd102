import { ApiError } from '../errors.js';
import type { StorageTx } from '../port/index.js';
import { allowedMethods, decodePathParams } from './allow.js';
import { authorize, type Principal } from './auth.js';
import {
  type BatchOperation,
  type OperationContext,
  type OperationRunner,
  operationContext,
  type Services,
  tenantOf,
} from './context.js';

import { announcing, preconditionFor, validatedInput, withAnnouncedText, withLocation } from './operation.js';
import { apiBase, methodNotAllowed, type RouteMatch, unknownPath } from './router.js';

export type { OperationRunner };

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

/** The most operations one batch may hold. */
export const maxBatchOperations = 100;

/** What a batch's operations run with: the batch request's own transaction, principal and time. */
export interface BatchDeps {
  route(method: string, url: string): Promise<RouteMatch>;
  tx: StorageTx;
  now: string;
  ids: OperationContext['ids'];
  principal: Principal;
  services: Services;
  /** The batch request's headers: an operation sees them, with its own If-Match and no key. */
  headers: Record<string, string>;
  /** Whether the batch request came over TLS (an operation's links take its scheme). */
  secure: boolean;
}

/** An operation routed and checked against the principal's rights, or why it cannot run. */
type OperationStep =
  | { kind: 'authorized'; match: Extract<RouteMatch, { kind: 'route' }>; path: string }
  | { kind: 'unrouted'; error: ApiError }
  | { kind: 'denied'; error: ApiError };

/**
 * The steps a run and a replay of a batch share for each operation: route it as a request of its
 * own under /api/v1, and check that the principal may run it.
 */
async function authorizedOperation(
  route: BatchDeps['route'],
  principal: Principal,
  operation: BatchOperation,
): Promise<OperationStep> {
  const url = `${apiBase}${operation.path}`;
  const match = await route(operation.method, url);
  const path = url.split('?')[0] ?? url;
  if (match.kind === 'not_found') return { kind: 'unrouted', error: unknownPath(path) };
  if (match.kind === 'method_not_allowed') {
    return { kind: 'unrouted', error: methodNotAllowed(operation.method, allowedMethods(match.allow)) };
  }
  const denied = authorize(principal, match.route.access, operation.method);
  return denied ? { kind: 'denied', error: denied } : { kind: 'authorized', match, path };
}

/**
 * The runner of a batch's operations: each routed, authorized, checked (If-Match), validated and
 * handled by its route exactly as handle.ts does a request of its own, but without an
 * Idempotency-Key of its own (the batch's key covers them all) and without a transaction of its
 * own (the batch's is theirs). No route is named here: every POST, PATCH and DELETE route of the
 * table can be an operation.
 */
export function operationRunner(deps: BatchDeps): OperationRunner {
  const { 'if-match': _ifMatch, 'idempotency-key': _key, ...shared } = deps.headers;
  return async (operation) => {
    const step = await authorizedOperation(deps.route, deps.principal, operation);
    if (step.kind !== 'authorized') throw step.error;
    const { match, path } = step;
    const { route } = match;
    if (route.kind === 'create' && operation.ifMatch !== undefined) {
      // A create has no version to hold it to: an ifMatch there is a mistake, said, not dropped.
      throw new ApiError(
        400,
        'validation_failed',
        `${operation.method} ${operation.path} creates, and a create takes no ifMatch.`,
        { issues: [{ in: 'body', path: 'ifMatch', message: 'not allowed on a create' }] },
      );
    }
    const precondition = preconditionFor(route, operation.ifMatch);
    const { query, body } = validatedInput(route, match.query, operation.body);
    const headers = operation.ifMatch === undefined ? shared : { ...shared, 'if-match': operation.ifMatch };
    const tenant = tenantOf(deps.principal);
    const plain = operationContext(deps.tx, deps.now, deps.ids, tenant, precondition, deps.services);
    const { ctx, announced } = announcing(plain);
    const params = decodePathParams(match.params);
    const reply = await route.handle(ctx, { params, query, body, headers, secure: deps.secure });
    if (reply.after || reply.streamFrom) {
      // Its work would run after the batch committed, outside its all-or-nothing.
      throw new ApiError(
        400,
        'validation_failed',
        `${operation.method} ${operation.path} does its work after the commit and cannot be part of a batch.`,
        { issues: [{ in: 'body', path: 'path', message: 'not allowed in a batch' }] },
      );
    }
    return withAnnouncedText(withLocation(reply, path), announced());
  };
}

/**
 * Checks, before a batch's key is replayed, that this principal may run each of its operations.
 * A key is the workspace's, so the stored answer may have been made with another member's
 * rights; a replay must not show what the request itself would be refused. A denied operation
 * answers as a first run would: the batch failed at that operation, nothing applied.
 */
export async function authorizeReplayedBatch(
  route: BatchDeps['route'],
  principal: Principal,
  operations: readonly BatchOperation[],
  stored: unknown,
): Promise<void> {
  const storedResults = (stored as { results?: unknown[] } | null)?.results ?? [];
  for (const [index, operation] of operations.entries()) {
    const step = await authorizedOperation(route, principal, operation);
    // An operation that routes nowhere could not have run in the first run either.
    if (step.kind === 'denied') throw batchFailed(operations, storedResults.slice(0, index), step.error);
  }
}

/** Whether a request path is the batch endpoint's (the rate limit counts its operations). */
export const isBatchPath = (path: string): boolean => /^\/api\/v1\/batch\/*$/.test(path);

/**
 * How many operations a batch body holds, for the rate limit, read before it is validated: at
 * least 1 (a body that is not a batch is one request, refused later), at most one past the limit
 * (a longer list is refused whole).
 */
export function batchSize(body: Uint8Array | string | null | undefined): number {
  if (body === null || body === undefined) return 1;
  try {
    const parsed = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as unknown;
    const operations = (parsed as { operations?: unknown } | null)?.operations;
    return Array.isArray(operations) ? Math.min(Math.max(operations.length, 1), maxBatchOperations + 1) : 1;
  } catch {
    return 1;
  }
}
