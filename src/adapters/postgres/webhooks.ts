import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  UniqueViolation,
  VersionMismatch,
  type WebhookStore,
} from '../../core/port/index.js';
import {
  type ClaimBudget,
  claimBudget,
  claimPageRows,
  leased,
  pagesBeforeHeads,
} from '../shared/claim-budget.js';
import { deliveryColumns, deliveryUpdateValues, deliveryValues } from '../shared/delivery-rows.js';
import type { Conn } from './connection.js';
import { activeHooksKey } from './signals.js';
import { Conditions } from './sql.js';

/**
 * Of the first `$5` due deliveries (the walk), read unlocked, those not of the subscriptions and
 * accounts left out, the `$4` due first, locked: a row left out is never locked (nor scanned past
 * beyond the walk), so a slow receiver's backlog neither blocks concurrent claimers nor costs a
 * step per row.
 */
const walkSql =
  'SELECT data FROM deliveries WHERE pk IN (' +
  'SELECT pk FROM deliveries WHERE next_attempt_at <= $1 ORDER BY next_attempt_at, pk LIMIT $5' +
  ') AND next_attempt_at <= $1 AND NOT (subscription_id = ANY($2::text[])) AND NOT (account_id = ANY($3::text[])) ' +
  'ORDER BY next_attempt_at, pk LIMIT $4 FOR UPDATE SKIP LOCKED';

/** How many of the first `$2` due deliveries there are: fewer means the walk saw them all. */
const walkLengthSql =
  'SELECT count(*)::int FROM (SELECT 1 FROM deliveries WHERE next_attempt_at <= $1 ' +
  'ORDER BY next_attempt_at, pk LIMIT $2) AS walked';

/**
 * The subscriptions with a delivery due (pending, or leased with its lease run out), found by
 * skipping from one subscription with deliveries still to send to the next in
 * `deliveries_due_by_subscription` (migration 8) and looking at the first of each: two index
 * seeks a subscription, however long its queue.
 */
const dueSubscriptionsSql =
  'WITH RECURSIVE queued(id) AS (' +
  '(SELECT subscription_id FROM deliveries WHERE next_attempt_at IS NOT NULL ORDER BY subscription_id LIMIT 1) ' +
  'UNION ALL SELECT (SELECT d.subscription_id FROM deliveries d ' +
  'WHERE d.next_attempt_at IS NOT NULL AND d.subscription_id > queued.id ORDER BY d.subscription_id LIMIT 1) ' +
  'FROM queued WHERE queued.id IS NOT NULL' +
  ') SELECT id FROM queued WHERE id IS NOT NULL AND (SELECT d.next_attempt_at FROM deliveries d ' +
  'WHERE d.subscription_id = queued.id AND d.next_attempt_at IS NOT NULL ORDER BY d.next_attempt_at LIMIT 1) <= $1';

/**
 * Of the first `take` due deliveries of each subscription named, the `$5` due first, locked.
 * Only those are locked: the heads are read without, so that a claim holds no more rows than it
 * may take (a row another claimer holds is passed over).
 */
const queueHeadsSql =
  'SELECT data FROM deliveries WHERE pk IN (' +
  'SELECT head.pk FROM unnest($2::text[], $3::int[]) AS queued(id, take) CROSS JOIN LATERAL (' +
  'SELECT pk, next_attempt_at FROM deliveries ' +
  'WHERE subscription_id = queued.id AND next_attempt_at <= $1 AND NOT (account_id = ANY($4::text[])) ' +
  'ORDER BY next_attempt_at, pk LIMIT queued.take) AS head ' +
  'ORDER BY head.next_attempt_at, head.pk LIMIT $5' +
  ') AND next_attempt_at <= $1 ORDER BY next_attempt_at, pk FOR UPDATE SKIP LOCKED';

/**
 * The due deliveries a claim may take, leaving out the subscriptions and accounts with no slot:
 * of the first `min(want, room)` due rows of every other subscription with a delivery due, the
 * `want` due first. A subscription's rows past its head could not be admitted, so these are
 * what walking the whole queue in due order would find, without walking the rows left out. The
 * cost grows with the number of subscriptions with deliveries queued, not with how many
 * deliveries they have.
 */
async function queueHeads(conn: Conn, now: string, budget: ClaimBudget, want: number): Promise<string[]> {
  const ids: string[] = [];
  const takes: number[] = [];
  for (const id of await conn.values<string>(dueSubscriptionsSql, [now])) {
    // A full subscription has no room.
    const take = Math.min(want, budget.room(id));
    if (take <= 0) continue;
    ids.push(id);
    takes.push(take);
  }
  if (ids.length === 0) return [];
  return conn.values<string>(queueHeadsSql, [now, ids, takes, budget.fullAccounts(), want]);
}

/** How many subscriptions and accounts the budget knows to be full: a round that adds none and claims none is the last. */
const knownFull = (budget: ClaimBudget): number =>
  budget.fullSubscriptions().length + budget.fullAccounts().length;

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
  await conn.consistent();
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

const getWebhookSql = 'SELECT data FROM webhooks WHERE id = $1 AND account_id = $2';
const getWebhookForWriteSql = `${getWebhookSql} FOR NO KEY UPDATE`;
const getDeliverySql = 'SELECT data FROM deliveries WHERE id = $1 AND account_id = $2';
const getDeliveryForWriteSql = `${getDeliverySql} FOR NO KEY UPDATE`;

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
      // In a write transaction the subscription is read to be changed (a rotation, a result
      // recorded on it): locked, so the other waits and reads it after (see the lock audit).
      const data = await conn.value<string>(conn.writing ? getWebhookForWriteSql : getWebhookSql, [
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
      // Read by the append of the event this is asked for, in its round trip (signals.ts).
      const key = activeHooksKey(accountId, eventType);
      const prefetched = conn.memo.get(key) as string[] | undefined;
      if (prefetched !== undefined) {
        conn.memo.delete(key);
        return prefetched.map(parseSubscription);
      }
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

/**
 * Webhook deliveries: the transactional outbox, then the delivery log. `queued` hears the account
 * of each delivery inserted or left due (pending with a next attempt), so the commit's
 * notification tells the other processes' dispatchers there is work (notifications.ts).
 */
export function postgresDeliveries(
  conn: Conn,
  queued: (accountId: string) => void = () => {},
): DeliveryStore {
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
      queued(d.accountId);
    },
    async get(accountId, id) {
      // In a write transaction a delivery is read to be changed (a retry): locked, so a claim
      // passes it over (SKIP LOCKED) or the retry waits for the claim and sees its lease.
      const data = await conn.value<string>(conn.writing ? getDeliveryForWriteSql : getDeliverySql, [
        id,
        accountId,
      ]);
      return data === undefined ? null : parseDelivery(data);
    },
    async update(d) {
      await conn.run(update, deliveryUpdateValues(d));
      if (d.status === 'pending') queued(d.accountId);
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
      // for; once leased (next_attempt_at moved to the lease's end) it is not due for anyone.
      // Rounds over the first `walkedBeforeHeads` due rows, leaving out (unlocked) those of
      // subscriptions and accounts known full; each round leases rows or leaves out one more
      // subscription or account, so the loop ends. A first-page claim stops after one round. A
      // thorough claim that found those rows all taken or left out, and more due behind them,
      // takes the heads of the other subscriptions' queues, in rounds of the same kind.
      const budget = claimBudget(claim);
      const claimed: WebhookDelivery[] = [];
      const walkedBeforeHeads = pagesBeforeHeads * claimPageRows(claim.limit);
      const take = async (data: string) => {
        const delivery = parseDelivery(data);
        if (!budget.admit(delivery)) return;
        const next = leased(delivery, claim);
        await conn.run(update, deliveryUpdateValues(next));
        claimed.push(next);
      };
      for (;;) {
        // Lock no more rows than still wanted: a locked row is skipped by concurrent claimers.
        const claimedBefore = claimed.length;
        const chunk = claim.limit - claimedBefore;
        if (chunk <= 0) return claimed;
        const subscriptions = budget.fullSubscriptions();
        const accounts = budget.fullAccounts();
        const rows = await conn.values<string>(walkSql, [
          claim.now,
          subscriptions,
          accounts,
          chunk,
          walkedBeforeHeads,
        ]);
        for (const data of rows) {
          if (claimed.length >= claim.limit) return claimed;
          await take(data);
        }
        if (claim.thorough === false) return claimed;
        if (rows.length === chunk) continue;
        // Short: everything due was seen, unless the walk's rows were all due ones left out.
        if (subscriptions.length === 0 && accounts.length === 0) return claimed;
        // The rows this round leased were in its walk and are not due now: they count toward
        // the walk's length, or a walk that leased some would seem to have reached the end.
        const due = await conn.value<number>(walkLengthSql, [claim.now, walkedBeforeHeads]);
        if ((due ?? 0) + (claimed.length - claimedBefore) < walkedBeforeHeads) return claimed;
        break;
      }
      // The heads, again as long as a round claims a row or leaves out one more subscription or
      // account: a head refused (its account had no slot, which only its admission could tell)
      // would otherwise stand in for a later one that fits. A round locks no more rows than wanted.
      for (;;) {
        const claimedBefore = claimed.length;
        if (claimedBefore >= claim.limit) return claimed;
        const fullBefore = knownFull(budget);
        const heads = await queueHeads(conn, claim.now, budget, claim.limit - claimedBefore);
        for (const data of heads) {
          if (claimed.length >= claim.limit) return claimed;
          await take(data);
        }
        if (heads.length === 0 || (claimed.length === claimedBefore && knownFull(budget) === fullBefore))
          return claimed;
      }
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
