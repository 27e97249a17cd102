import type { WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  UniqueViolation,
  VersionMismatch,
  type WebhookStore,
} from '../../core/storage.js';
import type { Conn } from './connection.js';
import { Conditions } from './sql.js';

/** One keyset page (createdAt desc, id desc) of a table's rows, and the count of all matches. */
async function keysetPage<Row>(
  conn: Conn,
  table: string,
  columns: string,
  toRow: (row: Record<string, unknown>) => Row,
  where: Conditions,
  after: { createdAt: string; id: string } | undefined,
  limit: number,
): Promise<ListResult<Row>> {
  const matchParams = [...where.params];
  const condition = where.sql;
  let keyset = '';
  if (after) keyset = ` AND (created_at, id) < (${where.param(after.createdAt)}, ${where.param(after.id)})`;
  const rows = await conn.rows(
    `SELECT ${columns} FROM ${table} WHERE ${condition}${keyset} ORDER BY created_at DESC, id DESC LIMIT ${where.param(limit)}`,
    where.params,
  );
  const total = await conn.value<number>(
    `SELECT COUNT(*)::int FROM ${table} WHERE ${condition}`,
    matchParams,
  );
  return { rows: rows.map(toRow), total: total ?? 0 };
}

const parseSubscription = (data: string) => JSON.parse(data) as WebhookSubscription;

/** An account's webhook subscriptions. */
export function postgresWebhooks(conn: Conn): WebhookStore {
  return {
    async insert(s) {
      const inserted = await conn.run(
        'INSERT INTO webhooks (id, account_id, status, event_types, created_at, version, data) ' +
          'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
        [s.id, s.accountId, s.status, s.eventTypes, s.createdAt, s.version, JSON.stringify(s)],
      );
      if (inserted === 0) throw new UniqueViolation('webhook.id');
    },
    async get(accountId, id) {
      const data = await conn.value<string>('SELECT data FROM webhooks WHERE id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      return data === undefined ? null : parseSubscription(data);
    },
    async list(query) {
      const where = new Conditions().add((p) => `account_id = ${p}`, query.accountId);
      if (query.status !== undefined) where.add((p) => `status = ${p}`, query.status);
      return keysetPage(
        conn,
        'webhooks',
        'data',
        (row) => parseSubscription(row.data as string),
        where,
        query.after,
        query.limit,
      );
    },
    async update(s, expectedVersion) {
      const changed = await conn.run(
        'UPDATE webhooks SET status = $1, event_types = $2, created_at = $3, version = $4, data = $5 ' +
          'WHERE id = $6 AND account_id = $7 AND version = $8',
        [
          s.status,
          s.eventTypes,
          s.createdAt,
          s.version,
          JSON.stringify(s),
          s.id,
          s.accountId,
          expectedVersion,
        ],
      );
      if (changed === 1) return;
      const current = await conn.value<number>(
        'SELECT version FROM webhooks WHERE id = $1 AND account_id = $2',
        [s.id, s.accountId],
      );
      throw new VersionMismatch(current ?? null);
    },
    async delete(accountId, id) {
      const deleted = await conn.run('DELETE FROM webhooks WHERE id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      if (deleted === 0) return false;
      await conn.run('DELETE FROM deliveries WHERE subscription_id = $1', [id]);
      return true;
    },
    async activeFor(accountId, eventType) {
      const rows = await conn.values<string>(
        "SELECT data FROM webhooks WHERE account_id = $1 AND status = 'active' " +
          "AND event_types && ARRAY[$2, '*']::text[] ORDER BY pk",
        [accountId, eventType],
      );
      return rows.map(parseSubscription);
    },
  };
}

interface DeliveryRow {
  status: WebhookDelivery['status'];
  next_attempt_at: string | null;
  data: string;
}
const deliveryColumns = 'status, next_attempt_at, data';

/** The stored delivery: its status and next attempt time are columns, the rest JSON. */
const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  ...(JSON.parse(row.data) as WebhookDelivery),
  status: row.status,
  nextAttemptAt: row.next_attempt_at,
});

/** Webhook deliveries: the transactional outbox, then the delivery log. */
export function postgresDeliveries(conn: Conn): DeliveryStore {
  return {
    async insert(d) {
      const inserted = await conn.run(
        'INSERT INTO deliveries (id, account_id, subscription_id, status, next_attempt_at, created_at, data) ' +
          'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
        [d.id, d.accountId, d.subscriptionId, d.status, d.nextAttemptAt, d.createdAt, JSON.stringify(d)],
      );
      if (inserted === 0) throw new UniqueViolation('delivery.id');
    },
    async get(accountId, id) {
      const row = await conn.row<DeliveryRow>(
        `SELECT ${deliveryColumns} FROM deliveries WHERE id = $1 AND account_id = $2`,
        [id, accountId],
      );
      return row === undefined ? null : toDelivery(row);
    },
    async update(d) {
      await conn.run('UPDATE deliveries SET status = $1, next_attempt_at = $2, data = $3 WHERE id = $4', [
        d.status,
        d.nextAttemptAt,
        JSON.stringify(d),
        d.id,
      ]);
    },
    async list(query) {
      const where = new Conditions()
        .add((p) => `subscription_id = ${p}`, query.subscriptionId)
        .add((p) => `account_id = ${p}`, query.accountId);
      return keysetPage(
        conn,
        'deliveries',
        deliveryColumns,
        (row) => toDelivery(row as unknown as DeliveryRow),
        where,
        query.after,
        query.limit,
      );
    },
    async claimDue(now, leaseUntil, limit, skipSubscriptions = []) {
      // SKIP LOCKED: a delivery another claimer is leasing right now is passed over, not waited
      // for; the lease (nextAttemptAt moved to leaseUntil) keeps it from later claims.
      const rows = await conn.rows<DeliveryRow & { pk: number; due_at: string }>(
        'WITH due AS (SELECT pk, next_attempt_at AS due_at FROM deliveries ' +
          "WHERE status = 'pending' AND next_attempt_at <= $1 AND NOT (subscription_id = ANY($3::text[])) " +
          'ORDER BY next_attempt_at, pk LIMIT $4 FOR UPDATE SKIP LOCKED) ' +
          'UPDATE deliveries d SET next_attempt_at = $2 FROM due WHERE d.pk = due.pk ' +
          `RETURNING d.pk, due.due_at, d.${deliveryColumns.split(', ').join(', d.')}`,
        [now, leaseUntil, skipSubscriptions, limit],
      );
      return rows
        .sort((a, b) => (a.due_at === b.due_at ? a.pk - b.pk : a.due_at < b.due_at ? -1 : 1))
        .map(toDelivery);
    },
  };
}
