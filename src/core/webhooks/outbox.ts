import type { SignalEvent, WebhookDelivery } from '../model.js';
import type { StorageTx } from '../port/index.js';
import type { Ids } from '../runtime.js';

/** The body a receiver gets for an event: exactly these bytes on every attempt. */
export function deliveryPayload(event: Pick<SignalEvent, 'id' | 'type' | 'occurredAt' | 'data'>): string {
  return JSON.stringify({ id: event.id, type: event.type, occurredAt: event.occurredAt, data: event.data });
}

/** A pending delivery of `payload` to one subscription, due at once. */
export function newDelivery(
  ids: Ids,
  input: {
    accountId: string;
    subscriptionId: string;
    eventId: string;
    eventType: string;
    payload: string;
    now: string;
  },
): WebhookDelivery {
  return {
    id: ids.id('dlv'),
    accountId: input.accountId,
    subscriptionId: input.subscriptionId,
    eventId: input.eventId,
    eventType: input.eventType,
    payload: input.payload,
    status: 'pending',
    attempts: 0,
    scheduleFrom: 0,
    nextAttemptAt: input.now,
    leaseId: null,
    leaseExpiresAt: null,
    lastAttemptAt: null,
    lastResponseStatus: null,
    lastError: null,
    lastDurationMs: null,
    deliveredAt: null,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/**
 * The transactional outbox: in the transaction that writes a signal, one delivery row per
 * active subscription of the account that wants its type. A rolled-back change therefore
 * delivers nothing, and a committed one cannot be lost.
 */
export async function enqueueDeliveries(tx: StorageTx, ids: Ids, event: SignalEvent): Promise<number> {
  const subscriptions = await tx.webhooks.activeFor(event.accountId, event.type);
  if (subscriptions.length === 0) return 0;
  const payload = deliveryPayload(event);
  for (const subscription of subscriptions) {
    await tx.deliveries.insert(
      newDelivery(ids, {
        accountId: event.accountId,
        subscriptionId: subscription.id,
        eventId: event.id,
        eventType: event.type,
        payload,
        now: event.occurredAt,
      }),
    );
  }
  return subscriptions.length;
}
