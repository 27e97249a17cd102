import type { Actor, SignalEvent } from '../model.js';
import type { StorageTx } from '../port/index.js';
import type { Ids } from '../runtime.js';
import { keepWatches } from '../watching/keep.js';
import { announce } from '../webhooks/announce.js';
import type { WebhookSender } from '../webhooks/sender.js';
import type { Principal } from './auth.js';
import type { Precondition } from './conditional.js';
import type { Reply } from './reply.js';

/** One operation of a batch (the batch family validates it): a change the request alone would make. */
export interface BatchOperation {
  method: 'POST' | 'PATCH' | 'DELETE';
  /** The path under /api/v1. */
  path: string;
  body?: unknown;
  ifMatch?: string | undefined;
}

/** Runs one operation of a batch as the request alone would run, in the batch's transaction. */
export type OperationRunner = (operation: BatchOperation) => Promise<Reply>;

/** What the signal of a mutation says; the context fills in ids, time, tenant and actor. */
export interface SignalInput {
  type: string;
  resource: { type: string; id: string };
  data: { object: unknown; previous?: unknown; [extra: string]: unknown };
  /**
   * What JSON.stringify makes of `data.object`, for `data` holding nothing else, when the caller
   * made it already: the signal stores it and the answer sends it as it is (insertAndAnnounce).
   */
  objectJson?: string;
}

/** Who an operation acts for: a token's principal, or the operator working through the CLI. */
export interface Tenant {
  accountId: string;
  workspaceId: string;
  actor: Actor;
}

/** Outside capabilities some operations need (webhook tests send over the network). */
export interface Services {
  webhooks: {
    sender: WebhookSender | null;
    allowPrivateTargets: boolean;
    /** Told (inside the transaction) that it queued deliveries: the dispatcher wakes after the commit. */
    deliveriesQueued?: () => void;
    /**
     * Host names resolved before the transaction (by a route's `prepare`): their addresses, or
     * null when the name did not resolve. A name missing here is resolved when needed.
     */
    resolvedHosts?: ReadonlyMap<string, readonly string[] | null>;
  };
}

export const noServices: Services = { webhooks: { sender: null, allowPrivateTargets: false } };

/**
 * Everything an operation may use. Operations are pure functions of (context, input): time,
 * ids and storage all come from here, so an embedding app or a test can call them directly.
 */
export interface OperationContext {
  tx: StorageTx;
  /** The time of the request, fixed for its whole transaction. */
  now: string;
  ids: Ids;
  tenant: Tenant;
  /** The request's If-Match, when it sent one. */
  precondition: Precondition | null;
  services: Services;
  /** Writes a signal, the webhook deliveries it causes and the watches it starts or files (watching/keep.ts), in the current transaction. */
  emit(signal: SignalInput): Promise<SignalEvent>;
  /**
   * Runs another route's operation in this transaction, as its request alone would be run: given
   * by the pipeline to a route that `runsOperations` (the batch) and to no other.
   */
  operations?: OperationRunner;
}

export function operationContext(
  tx: StorageTx,
  now: string,
  ids: Ids,
  tenant: Tenant,
  precondition: Precondition | null,
  services: Services = noServices,
): OperationContext {
  return {
    tx,
    now,
    ids,
    tenant,
    precondition,
    services,
    async emit(signal) {
      const event = await announce(
        tx,
        ids,
        {
          type: signal.type,
          occurredAt: now,
          accountId: tenant.accountId,
          workspaceId: tenant.workspaceId,
          actor: tenant.actor,
          resource: signal.resource,
          data: signal.data,
        },
        signal.objectJson === undefined ? undefined : { data: `{"object":${signal.objectJson}}` },
        services.webhooks.deliveriesQueued,
      );
      await keepWatches(tx, event);
      return event;
    },
  };
}

export const tenantOf = (principal: Principal): Tenant => ({
  accountId: principal.accountId,
  workspaceId: principal.workspaceId,
  actor: { userId: principal.userId, tokenId: principal.tokenId },
});
