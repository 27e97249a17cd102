import type { WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import { type DeliveryStore, VersionMismatch, type WebhookStore } from '../../core/storage.js';
import { isAfter, newestFirst } from '../shared/keyset.js';
import { clone, deleteWithUndo, type RecordUndo, setWithUndo } from './undo.js';

export interface WebhookState {
  webhooks: Map<string, WebhookSubscription>;
  deliveries: Map<string, WebhookDelivery>;
}

function page<Row extends { createdAt: string; id: string }>(
  rows: Row[],
  after: { createdAt: string; id: string } | undefined,
  limit: number,
) {
  rows.sort(newestFirst);
  const rest = after ? rows.filter((row) => isAfter(row, after)) : rows;
  return { rows: rest.slice(0, limit).map(clone), total: rows.length };
}

export function memoryWebhooks(state: WebhookState, record: RecordUndo): WebhookStore {
  return {
    async insert(subscription) {
      setWithUndo(state.webhooks, subscription.id, clone(subscription), record);
    },
    async get(accountId, id) {
      const row = state.webhooks.get(id);
      return row && row.accountId === accountId ? clone(row) : null;
    },
    async list(query) {
      const rows = [...state.webhooks.values()].filter(
        (w) => w.accountId === query.accountId && (query.status === undefined || w.status === query.status),
      );
      return page(rows, query.after, query.limit);
    },
    async update(subscription, expectedVersion) {
      const current = state.webhooks.get(subscription.id);
      if (!current || current.accountId !== subscription.accountId) throw new VersionMismatch(null);
      if (current.version !== expectedVersion) throw new VersionMismatch(current.version);
      setWithUndo(state.webhooks, subscription.id, clone(subscription), record);
    },
    async delete(accountId, id) {
      const row = state.webhooks.get(id);
      if (!row || row.accountId !== accountId) return false;
      for (const d of [...state.deliveries.values()]) {
        if (d.subscriptionId === id) deleteWithUndo(state.deliveries, d.id, record);
      }
      return deleteWithUndo(state.webhooks, id, record);
    },
    async activeFor(accountId, eventType) {
      return [...state.webhooks.values()]
        .filter(
          (w) =>
            w.accountId === accountId &&
            w.status === 'active' &&
            (w.eventTypes.includes('*') || w.eventTypes.includes(eventType)),
        )
        .map(clone);
    },
  };
}

export function memoryDeliveries(state: WebhookState, record: RecordUndo): DeliveryStore {
  return {
    async insert(delivery) {
      setWithUndo(state.deliveries, delivery.id, clone(delivery), record);
    },
    async get(accountId, id) {
      const row = state.deliveries.get(id);
      return row && row.accountId === accountId ? clone(row) : null;
    },
    async update(delivery) {
      if (state.deliveries.has(delivery.id))
        setWithUndo(state.deliveries, delivery.id, clone(delivery), record);
    },
    async list(query) {
      const rows = [...state.deliveries.values()].filter(
        (d) => d.accountId === query.accountId && d.subscriptionId === query.subscriptionId,
      );
      return page(rows, query.after, query.limit);
    },
    async claimDue(now, leaseUntil, limit, skipSubscriptions = []) {
      const due = [...state.deliveries.values()]
        .filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now)
        .filter((d) => !skipSubscriptions.includes(d.subscriptionId))
        .sort((a, b) => ((a.nextAttemptAt as string) < (b.nextAttemptAt as string) ? -1 : 1))
        .slice(0, limit);
      for (const d of due) setWithUndo(state.deliveries, d.id, { ...d, nextAttemptAt: leaseUntil }, record);
      return due.map((d) => clone({ ...d, nextAttemptAt: leaseUntil }));
    },
  };
}
