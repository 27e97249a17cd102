import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  VersionMismatch,
  type WebhookStore,
} from '../../../core/port/index.js';
import { type ClaimBudget, claimBudget, claimPageRows, pagesBeforeHeads } from '../../shared/claim-budget.js';
import { deliveryColumns, deliveryUpdateValues, deliveryValues } from '../../shared/delivery-rows.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { withUniqueRules } from './unique-rules.js';

/** One keyset page (createdAt desc, id desc) of a table's JSON rows, and the count of all matches. */
function keysetPage<Row>(
  conn: Conn,
  table: string,
  where: { clauses: string[]; params: unknown[] },
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): ListResult<Row> {
  const condition = where.clauses.join(' AND ');
  const rows = conn
    .values<string>(
      `SELECT data FROM ${table} WHERE ${condition}${after ? ' AND (created_at, id) < (?, ?)' : ''} ` +
        'ORDER BY created_at DESC, id DESC LIMIT ?',
      after ? [...where.params, after.createdAt, after.id, limit] : [...where.params, limit],
    )
    .map((data) => JSON.parse(data) as Row);
  const total = conn.value<number>(`SELECT COUNT(*) FROM ${table} WHERE ${condition}`, where.params) ?? 0;
  return { rows, total };
}

const parseSubscription = (data: string) => JSON.parse(data) as WebhookSubscription;
const parseDelivery = (data: string) => JSON.parse(data) as WebhookDelivery;

const sqliteWebhooksMethods: WebhookStore & ThisType<TransactionBound> = {
  async insert(s) {
    const { conn } = this;
    withUniqueRules({ 'webhooks.id': 'webhook.id' }, () =>
      conn.run(
        'INSERT INTO webhooks (id, account_id, status, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?)',
        [s.id, s.accountId, s.status, s.createdAt, s.version, JSON.stringify(s)],
      ),
    );
  },
  async get(accountId, id) {
    const { conn } = this;
    const data = conn.value<string>('SELECT data FROM webhooks WHERE id = ? AND account_id = ?', [
      id,
      accountId,
    ]);
    return data === undefined ? null : parseSubscription(data);
  },
  async list(query) {
    const { conn } = this;
    const where = { clauses: ['account_id = ?'], params: [query.accountId] as unknown[] };
    if (query.status !== undefined) {
      where.clauses.push('status = ?');
      where.params.push(query.status);
    }
    return keysetPage<WebhookSubscription>(conn, 'webhooks', where, query.after, query.limit);
  },
  async update(s, expectedVersion) {
    const { conn } = this;
    const changed = conn.run(
      'UPDATE webhooks SET status = ?, created_at = ?, version = ?, data = ? ' +
        'WHERE id = ? AND account_id = ? AND version = ?',
      [s.status, s.createdAt, s.version, JSON.stringify(s), s.id, s.accountId, expectedVersion],
    );
    if (changed === 1) return;
    const current = conn.value<number>('SELECT version FROM webhooks WHERE id = ? AND account_id = ?', [
      s.id,
      s.accountId,
    ]);
    throw new VersionMismatch(current ?? null);
  },
  async delete(accountId, id) {
    const { conn } = this;
    const deleted = conn.run('DELETE FROM webhooks WHERE id = ? AND account_id = ?', [id, accountId]) > 0;
    if (deleted) {
      conn.run('DELETE FROM deliveries WHERE subscription_id = ?', [id]);
      conn.run('DELETE FROM delivery_attempts WHERE subscription_id = ?', [id]);
    }
    return deleted;
  },
  async activeFor(accountId, eventType) {
    const { conn } = this;
    // Every write asks this: kept for the rest of the transaction (engine/read-cache.ts).
    return conn
      .keptValues<string>(
        ['webhooks'],
        "SELECT data FROM webhooks WHERE account_id = ? AND status = 'active' AND EXISTS " +
          "(SELECT 1 FROM json_each(webhooks.data, '$.eventTypes') WHERE value IN (?, '*')) ORDER BY rowid",
        [accountId, eventType],
      )
      .map(parseSubscription);
  },
};

/** An account's webhook subscriptions. */
export function sqliteWebhooks(conn: Conn): WebhookStore {
  const m = sqliteWebhooksMethods;
  const store = {
    conn,
    insert: m.insert,
    get: m.get,
    list: m.list,
    update: m.update,
    delete: m.delete,
    activeFor: m.activeFor,
  };
  return store;
}

/** A due delivery's key: which row, and whose slots it takes. */
interface ClaimKey {
  rowid: number;
  subscriptionId: string;
  accountId: string;
  nextAttemptAt: string;
}

/** The keys of due deliveries after a place in the queue, oldest due first (ties in insertion order). */
const claimKeysSql =
  'SELECT rowid, subscription_id AS subscriptionId, account_id AS accountId, next_attempt_at AS nextAttemptAt ' +
  'FROM deliveries WHERE next_attempt_at <= ? AND (next_attempt_at, rowid) > (?, ?) ' +
  'ORDER BY next_attempt_at, rowid LIMIT ?';

/**
 * The subscriptions with a delivery due (pending, or leased with its lease run out), found by
 * skipping from one subscription with deliveries still to send to the next in
 * `deliveries_due_by_subscription` (migration 12) and looking at the first of each: two index
 * seeks a subscription, however long its queue. Both queries name the index: with another plan
 * (the subscription's listing index, say) a look would walk the subscription's whole history.
 */
const dueSubscriptionsSql =
  'WITH RECURSIVE queued(id) AS (' +
  'SELECT min(subscription_id) FROM deliveries INDEXED BY deliveries_due_by_subscription ' +
  'WHERE next_attempt_at IS NOT NULL ' +
  'UNION ALL SELECT (SELECT min(subscription_id) FROM deliveries INDEXED BY deliveries_due_by_subscription ' +
  'WHERE next_attempt_at IS NOT NULL AND subscription_id > queued.id) FROM queued WHERE queued.id IS NOT NULL' +
  ') SELECT id FROM queued WHERE id IS NOT NULL AND (SELECT min(next_attempt_at) FROM deliveries ' +
  'INDEXED BY deliveries_due_by_subscription WHERE subscription_id = queued.id AND next_attempt_at IS NOT NULL) <= ?';

/** The first due deliveries of one subscription, oldest due first. */
const queueHeadSql =
  'SELECT rowid, subscription_id AS subscriptionId, account_id AS accountId, next_attempt_at AS nextAttemptAt ' +
  'FROM deliveries INDEXED BY deliveries_due_by_subscription ' +
  'WHERE subscription_id = ? AND next_attempt_at <= ? ORDER BY next_attempt_at, rowid LIMIT ?';

/**
 * The due deliveries a claim could admit, oldest due first, leaving out the subscriptions and
 * accounts with no slot: the first `min(want, room)` due rows of every other subscription with
 * a delivery due, merged. Admitted in this order, they give what walking the whole queue in due
 * order would (a subscription's rows past its head could not be admitted: its slots or the
 * claim's want run out first), without walking the rows left out: a busy subscription's backlog
 * costs one skip instead of a step per row. The cost grows with the number of subscriptions with
 * deliveries queued (a few µs each), not with how many deliveries they have.
 */
function queueHeads(conn: Conn, now: string, budget: ClaimBudget, want: number): ClaimKey[] {
  const fullAccounts = new Set(budget.fullAccounts());
  const heads: ClaimKey[] = [];
  for (const subscriptionId of conn.values<string>(dueSubscriptionsSql, [now])) {
    // A full subscription has no room.
    const take = Math.min(want, budget.room(subscriptionId));
    if (take <= 0) continue;
    for (const row of conn.rows<ClaimKey>(queueHeadSql, [subscriptionId, now, take])) {
      if (!fullAccounts.has(row.accountId)) heads.push(row);
    }
  }
  return heads.sort((a, b) =>
    a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.rowid - b.rowid,
  );
}

const deliveryUpdate =
  'UPDATE deliveries SET status = ?, next_attempt_at = ?, lease_id = ?, data = ? WHERE id = ?';

/** A claim's lease of one delivery (see leased, claim-budget.ts): claimable again when the lease ends. */
const leaseSql =
  "UPDATE deliveries SET status = 'sending', next_attempt_at = ?, lease_id = ?, " +
  "data = json_set(data, '$.status', 'sending', '$.leaseId', ?, '$.leaseExpiresAt', ?) " +
  'WHERE rowid = ? RETURNING data';
const insertAttempt = (conn: Conn, attempt: DeliveryAttempt) =>
  withUniqueRules({ 'delivery_attempts.id': 'delivery_attempt.id' }, () =>
    conn.run(
      'INSERT INTO delivery_attempts (id, account_id, subscription_id, delivery_id, number, started_at, succeeded, data) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        attempt.id,
        attempt.accountId,
        attempt.subscriptionId,
        attempt.deliveryId,
        attempt.number,
        attempt.startedAt,
        attempt.succeeded ? 1 : 0,
        JSON.stringify(attempt),
      ],
    ),
  );

/** Made once: a statement text built at each call would be hashed anew by the statement cache. */
const insertDeliverySql = `INSERT INTO deliveries (${deliveryColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

const sqliteDeliveriesMethods: DeliveryStore & ThisType<TransactionBound> = {
  async insert(d) {
    const { conn } = this;
    withUniqueRules({ 'deliveries.id': 'delivery.id' }, () => conn.run(insertDeliverySql, deliveryValues(d)));
  },
  async get(accountId, id) {
    const { conn } = this;
    const data = conn.value<string>('SELECT data FROM deliveries WHERE id = ? AND account_id = ?', [
      id,
      accountId,
    ]);
    return data === undefined ? null : parseDelivery(data);
  },
  async update(d) {
    const { conn } = this;
    conn.run(deliveryUpdate, deliveryUpdateValues(d));
  },
  async list(query) {
    const { conn } = this;
    const where = {
      clauses: ['subscription_id = ?', 'account_id = ?'],
      params: [query.subscriptionId, query.accountId] as unknown[],
    };
    return keysetPage<WebhookDelivery>(conn, 'deliveries', where, query.after, query.limit);
  },
  async claimDue(claim) {
    const { conn } = this;
    // The transaction is serialized (one writer), so selecting and leasing cannot interleave
    // with another claim. Pages in due order, each from where the last ended (its refused rows
    // stay due); a first-page claim stops after one. A thorough claim still short after
    // `pagesBeforeHeads` full pages takes the heads of the other subscriptions' queues, once.
    const budget = claimBudget(claim);
    const claimed: WebhookDelivery[] = [];
    const chunk = claimPageRows(claim.limit);
    const take = (row: ClaimKey) => {
      if (!budget.admit(row)) return;
      // Leased in one statement: SQLite sets the three fields in the stored text as they are
      // (json_set keeps the rest as it was, the payload included) and hands back the result.
      const data = conn.value<string>(leaseSql, [
        claim.leaseUntil,
        claim.leaseId,
        claim.leaseId,
        claim.leaseUntil,
        row.rowid,
      ]);
      if (data !== undefined) claimed.push(parseDelivery(data));
    };
    let after: [string, number] = ['', 0];
    for (let page = 0; page < pagesBeforeHeads; page++) {
      const rows = conn.rows<ClaimKey>(claimKeysSql, [claim.now, ...after, chunk]);
      for (const row of rows) {
        if (claimed.length >= claim.limit) return claimed;
        take(row);
      }
      const last = rows.at(-1);
      if (!last || rows.length < chunk || claimed.length >= claim.limit || claim.thorough === false) {
        return claimed;
      }
      after = [last.nextAttemptAt, last.rowid];
    }
    // Every row walked so far is leased, or refused with its subscription or account now full:
    // what is left to find is past the walk, at the heads of the other queues.
    for (const row of queueHeads(conn, claim.now, budget, claim.limit - claimed.length)) {
      if (claimed.length >= claim.limit) break;
      take(row);
    }
    return claimed;
  },
  async recordAttempts(records) {
    const { conn } = this;
    return records.map(({ delivery, leaseId, attempt }) => {
      const applied =
        conn.run(`${deliveryUpdate} AND status = 'sending' AND lease_id = ?`, [
          ...deliveryUpdateValues(delivery),
          leaseId,
        ]) === 1;
      if (applied && attempt) insertAttempt(conn, attempt);
      return applied;
    });
  },
  async insertAttempt(attempt) {
    insertAttempt(this.conn, attempt);
  },
  async attempts(accountId, deliveryId, limit) {
    const { conn } = this;
    return conn
      .values<string>(
        'SELECT data FROM (SELECT data, number FROM delivery_attempts WHERE delivery_id = ? AND account_id = ? ' +
          'ORDER BY number DESC LIMIT ?) ORDER BY number',
        [deliveryId, accountId, limit],
      )
      .map((data) => JSON.parse(data) as DeliveryAttempt);
  },
  async attemptsPerHour(accountId, subscriptionId, since) {
    const { conn } = this;
    return conn
      .rows<{ hour: string; succeeded: number; failed: number }>(
        "SELECT substr(started_at, 1, 13) || ':00:00.000Z' AS hour, SUM(succeeded) AS succeeded, " +
          'SUM(1 - succeeded) AS failed FROM delivery_attempts ' +
          'WHERE subscription_id = ? AND account_id = ? AND started_at >= ? GROUP BY hour ORDER BY hour',
        [subscriptionId, accountId, since],
      )
      .map((row) => ({ hour: row.hour, succeeded: row.succeeded, failed: row.failed }));
  },
  async nextClaimableAt() {
    const { conn } = this;
    return (
      conn.value<string | null>(
        'SELECT next_attempt_at FROM deliveries WHERE next_attempt_at IS NOT NULL ORDER BY next_attempt_at LIMIT 1',
      ) ?? null
    );
  },
};

/** Webhook deliveries: the transactional outbox, then the delivery log. */
export function sqliteDeliveries(conn: Conn): DeliveryStore {
  const m = sqliteDeliveriesMethods;
  const store = {
    conn,
    insert: m.insert,
    get: m.get,
    update: m.update,
    list: m.list,
    claimDue: m.claimDue,
    recordAttempts: m.recordAttempts,
    insertAttempt: m.insertAttempt,
    attempts: m.attempts,
    attemptsPerHour: m.attemptsPerHour,
    nextClaimableAt: m.nextClaimableAt,
  };
  return store;
}
