import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type AttemptHour,
  type DeliveryStore,
  VersionMismatch,
  type WebhookStore,
} from '../../core/port/index.js';
import { claimableAt, claimBudget, leased } from '../shared/claim-budget.js';
import { isAfter, newestFirst } from '../shared/keyset.js';
import type { DeliveryRows } from './delivery-rows.js';
import { clone, deleteWithUndo, type RecordUndo, setWithUndo } from './undo.js';

export interface WebhookState {
  webhooks: Map<string, WebhookSubscription>;
  deliveries: DeliveryRows;
  /** Each delivery's attempt log, oldest first, by delivery id. */
  attempts: Map<string, DeliveryAttempt[]>;
  /**
   * Attempts counted per hour, by account and subscription (`hoursKey`) then hour start: kept as attempts are appended,
   * so the last day's chart reads at most a counter an hour instead of every attempt.
   */
  attemptHours: Map<string, Map<string, AttemptHour>>;
}

const hoursKey = (accountId: string, subscriptionId: string) => `${accountId}\n${subscriptionId}`;

/** Counts an attempt in its subscription's hour, recording how to take the count back. */
function countAttempt(state: WebhookState, attempt: DeliveryAttempt, record: RecordUndo) {
  const hour = `${attempt.startedAt.slice(0, 13)}:00:00.000Z`;
  const key = hoursKey(attempt.accountId, attempt.subscriptionId);
  let hours = state.attemptHours.get(key);
  if (!hours) {
    hours = new Map();
    setWithUndo(state.attemptHours, key, hours, record);
  }
  const bucket = hours.get(hour) ?? { hour, succeeded: 0, failed: 0 };
  setWithUndo(
    hours,
    hour,
    attempt.succeeded
      ? { ...bucket, succeeded: bucket.succeeded + 1 }
      : { ...bucket, failed: bucket.failed + 1 },
    record,
  );
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

/** Insert and get of records kept by id, each of one account: another account's reads as none. */
function accountRecords<Row extends { id: string; accountId: string }>(
  rows: Map<string, Row>,
  record: RecordUndo,
) {
  return {
    async insert(row: Row) {
      setWithUndo(rows, row.id, clone(row), record);
    },
    async get(accountId: string, id: string) {
      const row = rows.get(id);
      return row && row.accountId === accountId ? clone(row) : null;
    },
  };
}

export function memoryWebhooks(state: WebhookState, record: RecordUndo): WebhookStore {
  return {
    ...accountRecords(state.webhooks, record),
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
      for (const d of state.deliveries.ofSubscription(id)) {
        if (d.accountId !== accountId) continue;
        deleteWithUndo(state.deliveries, d.id, record);
        deleteWithUndo(state.attempts, d.id, record);
      }
      deleteWithUndo(state.attemptHours, hoursKey(accountId, id), record);
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
  const appendAttempt = (attempt: DeliveryAttempt) => {
    const log = state.attempts.get(attempt.deliveryId) ?? [];
    setWithUndo(state.attempts, attempt.deliveryId, [...log, clone(attempt)], record);
    countAttempt(state, attempt, record);
  };
  return {
    ...accountRecords(state.deliveries, record),
    async update(delivery) {
      if (state.deliveries.has(delivery.id))
        setWithUndo(state.deliveries, delivery.id, clone(delivery), record);
    },
    async list(query) {
      const rows = [...state.deliveries.ofSubscription(query.subscriptionId)].filter(
        (d) => d.accountId === query.accountId,
      );
      return page(rows, query.after, query.limit);
    },
    async claimDue(claim) {
      // The rows of subscriptions and accounts named full are passed over before sorting: a
      // slow receiver's backlog costs a look each, not a place in the sort.
      const fullSubscriptions = new Set(claim.fullSubscriptions);
      const fullAccounts = new Set(claim.fullAccounts);
      const due: { d: WebhookDelivery; at: string }[] = [];
      for (const d of state.deliveries.open()) {
        if (fullSubscriptions.has(d.subscriptionId) || fullAccounts.has(d.accountId)) continue;
        const at = claimableAt(d);
        if (at !== null && at <= claim.now) due.push({ d, at });
      }
      due.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
      const budget = claimBudget(claim);
      const claimed: WebhookDelivery[] = [];
      for (const { d } of due) {
        if (claimed.length >= claim.limit) break;
        if (!budget.admit(d)) continue;
        const next = leased(d, claim);
        setWithUndo(state.deliveries, d.id, next, record);
        claimed.push(clone(next));
      }
      return claimed;
    },
    async recordAttempts(records) {
      return records.map(({ delivery, leaseId, attempt }) => {
        const current = state.deliveries.get(delivery.id);
        if (current?.status !== 'sending' || current.leaseId !== leaseId) return false;
        setWithUndo(state.deliveries, delivery.id, clone(delivery), record);
        if (attempt) appendAttempt(attempt);
        return true;
      });
    },
    async insertAttempt(attempt) {
      appendAttempt(attempt);
    },
    async attempts(accountId, deliveryId, limit) {
      const log = state.attempts.get(deliveryId) ?? [];
      return log
        .filter((a) => a.accountId === accountId)
        .slice(-limit)
        .map(clone);
    },
    async attemptsPerHour(accountId, subscriptionId, since) {
      return [...(state.attemptHours.get(hoursKey(accountId, subscriptionId))?.values() ?? [])]
        .filter((h) => h.hour >= since)
        .sort((a, b) => (a.hour < b.hour ? -1 : 1))
        .map(clone);
    },
    async nextClaimableAt() {
      let earliest: string | null = null;
      for (const d of state.deliveries.open()) {
        const at = claimableAt(d);
        if (at !== null && (earliest === null || at < earliest)) earliest = at;
      }
      return earliest;
    },
  };
}
