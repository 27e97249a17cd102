import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  UniqueViolation,
  VersionMismatch,
  type WebhookStore,
} from '../../core/storage.js';
import { claimBudget, leased } from '../shared/claim-budget.js';
import { deliveryColumns, deliveryUpdateValues, deliveryValues } from '../shared/delivery-rows.js';
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
      await conn.run('DELETE FROM delivery_attempts WHERE subscription_id = $1', [id]);
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

const parseDelivery = (data: string) => JSON.parse(data) as WebhookDelivery;

const insertDeliverySql = `INSERT INTO deliveries (${deliveryColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`;

/** Webhook deliveries: the transactional outbox, then the delivery log. */
export function postgresDeliveries(conn: Conn): DeliveryStore {
  const update =
    'UPDATE deliveries SET status = $1, next_attempt_at = $2, lease_id = $3, data = $4 WHERE id = $5';
  const insertAttempt = async (a: DeliveryAttempt) => {
    const inserted = await conn.run(
      'INSERT INTO delivery_attempts (id, account_id, subscription_id, delivery_id, number, started_at, succeeded, data) ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING',
      [
        a.id,
        a.accountId,
        a.subscriptionId,
        a.deliveryId,
        a.number,
        a.startedAt,
        a.succeeded,
        JSON.stringify(a),
      ],
    );
    if (inserted === 0) throw new UniqueViolation('delivery_attempt.id');
  };
  return {
    async insert(d) {
      const inserted = await conn.run(insertDeliverySql, deliveryValues(d));
      if (inserted === 0) throw new UniqueViolation('delivery.id');
    },
    async get(accountId, id) {
      const data = await conn.value<string>('SELECT data FROM deliveries WHERE id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      return data === undefined ? null : parseDelivery(data);
    },
    async update(d) {
      await conn.run(update, deliveryUpdateValues(d));
    },
    async list(query) {
      const where = new Conditions()
        .add((p) => `subscription_id = ${p}`, query.subscriptionId)
        .add((p) => `account_id = ${p}`, query.accountId);
      return keysetPage(
        conn,
        'deliveries',
        'data',
        (row) => parseDelivery(row.data as string),
        where,
        query.after,
        query.limit,
      );
    },
    async claimDue(claim) {
      // FOR UPDATE SKIP LOCKED: a row another claimer holds right now is passed over, not waited
      // for; once leased (next_attempt_at moved to the lease's end) it is not due for anyone. Rows
      // of subscriptions or accounts out of slots are left out by the query; each round either
      // leases rows or leaves out one more, so the loop ends.
      const budget = claimBudget(claim);
      const claimed: WebhookDelivery[] = [];
      for (;;) {
        // Lock no more rows than still wanted: a locked row is skipped by concurrent claimers.
        const chunk = claim.limit - claimed.length;
        if (chunk <= 0) break;
        const rows = await conn.values<string>(
          'SELECT data FROM deliveries WHERE next_attempt_at <= $1 ' +
            'AND NOT (subscription_id = ANY($2::text[])) AND NOT (account_id = ANY($3::text[])) ' +
            'ORDER BY next_attempt_at, pk LIMIT $4 FOR UPDATE SKIP LOCKED',
          [claim.now, budget.fullSubscriptions(), budget.fullAccounts(), chunk],
        );
        for (const data of rows) {
          if (claimed.length >= claim.limit) break;
          const delivery = parseDelivery(data);
          if (!budget.admit(delivery)) continue;
          const next = leased(delivery, claim);
          await conn.run(update, deliveryUpdateValues(next));
          claimed.push(next);
        }
        if (rows.length < chunk || claim.thorough === false) break;
      }
      return claimed;
    },
    async recordAttempts(records) {
      const applied: boolean[] = [];
      for (const { delivery, leaseId, attempt } of records) {
        const changed = await conn.run(`${update} AND status = 'sending' AND lease_id = $6`, [
          ...deliveryUpdateValues(delivery),
          leaseId,
        ]);
        if (changed === 1 && attempt) await insertAttempt(attempt);
        applied.push(changed === 1);
      }
      return applied;
    },
    insertAttempt,
    async attempts(accountId, deliveryId, limit) {
      const rows = await conn.values<string>(
        'SELECT data FROM (SELECT data, number FROM delivery_attempts WHERE delivery_id = $1 AND account_id = $2 ' +
          'ORDER BY number DESC LIMIT $3) AS latest ORDER BY number',
        [deliveryId, accountId, limit],
      );
      return rows.map((data) => JSON.parse(data) as DeliveryAttempt);
    },
    async attemptsPerHour(accountId, subscriptionId, since) {
      const rows = await conn.rows<{ hour: string; succeeded: number; failed: number }>(
        "SELECT substr(started_at, 1, 13) || ':00:00.000Z' AS hour, " +
          'COUNT(*) FILTER (WHERE succeeded)::int AS succeeded, COUNT(*) FILTER (WHERE NOT succeeded)::int AS failed ' +
          'FROM delivery_attempts WHERE subscription_id = $1 AND account_id = $2 AND started_at >= $3 ' +
          'GROUP BY 1 ORDER BY 1',
        [subscriptionId, accountId, since],
      );
      return rows.map((row) => ({ hour: row.hour, succeeded: row.succeeded, failed: row.failed }));
    },
    async nextClaimableAt() {
      return (
        (await conn.value<string>(
          'SELECT next_attempt_at FROM deliveries WHERE next_attempt_at IS NOT NULL ORDER BY next_attempt_at LIMIT 1',
        )) ?? null
      );
    },
  };
}
