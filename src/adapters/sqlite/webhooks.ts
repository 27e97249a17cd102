import type { WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  VersionMismatch,
  type WebhookStore,
} from '../../core/storage.js';
import type { Conn } from './connection.js';
import { withUniqueRules } from './errors.js';

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

/** An account's webhook subscriptions. */
export function sqliteWebhooks(conn: Conn): WebhookStore {
  return {
    async insert(s) {
      withUniqueRules({ 'webhooks.id': 'webhook.id' }, () =>
        conn.run(
          'INSERT INTO webhooks (id, account_id, status, created_at, version, data) VALUES (?, ?, ?, ?, ?, ?)',
          [s.id, s.accountId, s.status, s.createdAt, s.version, JSON.stringify(s)],
        ),
      );
    },
    async get(accountId, id) {
      const data = conn.value<string>('SELECT data FROM webhooks WHERE id = ? AND account_id = ?', [
        id,
        accountId,
      ]);
      return data === undefined ? null : parseSubscription(data);
    },
    async list(query) {
      const where = { clauses: ['account_id = ?'], params: [query.accountId] as unknown[] };
      if (query.status !== undefined) {
        where.clauses.push('status = ?');
        where.params.push(query.status);
      }
      return keysetPage<WebhookSubscription>(conn, 'webhooks', where, query.after, query.limit);
    },
    async update(s, expectedVersion) {
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
      const deleted = conn.run('DELETE FROM webhooks WHERE id = ? AND account_id = ?', [id, accountId]) > 0;
      if (deleted) conn.run('DELETE FROM deliveries WHERE subscription_id = ?', [id]);
      return deleted;
    },
    async activeFor(accountId, eventType) {
      return conn
        .values<string>(
          "SELECT data FROM webhooks WHERE account_id = ? AND status = 'active' AND EXISTS " +
            "(SELECT 1 FROM json_each(webhooks.data, '$.eventTypes') WHERE value IN (?, '*')) ORDER BY rowid",
          [accountId, eventType],
        )
        .map(parseSubscription);
    },
  };
}

/** Webhook deliveries: the transactional outbox, then the delivery log. */
export function sqliteDeliveries(conn: Conn): DeliveryStore {
  const write = (d: WebhookDelivery) => [d.status, d.nextAttemptAt, JSON.stringify(d), d.id];
  return {
    async insert(d) {
      withUniqueRules({ 'deliveries.id': 'delivery.id' }, () =>
        conn.run(
          'INSERT INTO deliveries (id, account_id, subscription_id, status, next_attempt_at, created_at, data) ' +
            'VALUES (?, ?, ?, ?, ?, ?, ?)',
          [d.id, d.accountId, d.subscriptionId, d.status, d.nextAttemptAt, d.createdAt, JSON.stringify(d)],
        ),
      );
    },
    async get(accountId, id) {
      const data = conn.value<string>('SELECT data FROM deliveries WHERE id = ? AND account_id = ?', [
        id,
        accountId,
      ]);
      return data === undefined ? null : parseDelivery(data);
    },
    async update(d) {
      conn.run('UPDATE deliveries SET status = ?, next_attempt_at = ?, data = ? WHERE id = ?', write(d));
    },
    async list(query) {
      const where = {
        clauses: ['subscription_id = ?', 'account_id = ?'],
        params: [query.subscriptionId, query.accountId] as unknown[],
      };
      return keysetPage<WebhookDelivery>(conn, 'deliveries', where, query.after, query.limit);
    },
    async claimDue(now, leaseUntil, limit, skipSubscriptions = []) {
      // Select and lease in one serialized transaction: no other claim can see these rows as due.
      const skip = skipSubscriptions.length
        ? `AND subscription_id NOT IN (${skipSubscriptions.map(() => '?').join(', ')}) `
        : '';
      const due = conn
        .values<string>(
          `SELECT data FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ? ${skip}` +
            'ORDER BY next_attempt_at, rowid LIMIT ?',
          [now, ...skipSubscriptions, limit],
        )
        .map(parseDelivery);
      return due.map((delivery) => {
        const leased = { ...delivery, nextAttemptAt: leaseUntil };
        conn.run(
          'UPDATE deliveries SET status = ?, next_attempt_at = ?, data = ? WHERE id = ?',
          write(leased),
        );
        return leased;
      });
    },
  };
}
