import type { QueryResult } from 'pg';
import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../../core/model.js';
import {
  type DeliveryStore,
  type ListResult,
  UniqueViolation,
  VersionMismatch,
  type WebhookStore,
} from '../../core/port/index.js';
import { type ClaimBudget, claimableAt, claimBudget, leased } from '../shared/claim-budget.js';
import { deliveryColumns, deliveryUpdateValues, deliveryValues } from '../shared/delivery-rows.js';
import type { Conn, Statement } from './connection.js';
import { Conditions } from './sql.js';
import { activeHooksKey } from './transaction-memo.js';

/*
 * The dispatcher's claim, per account. `due_accounts` (a reference table, migration 18) names
 * every account with a delivery to claim and a time no later than its earliest: a claim reads the
 * accounts due by now there, then reads and locks deliveries inside one account at a time
 * (`account_id = $1`), never across accounts.
 *
 * Every write that makes a delivery claimable earlier lowers its account's time (an insert, a
 * reschedule: `lowerDueSql`, with the COMMIT); a claim and a recorded result, which make
 * deliveries claimable later or never, set it to the account's earliest again or delete the row
 * (`refreshDue`). A time too early only costs a claim a look at the account; it is never later
 * than the account's earliest delivery: a refresh first locks the accounts' rows (making those
 * missing), in a statement of its own, so a transaction that lowered or made one has committed,
 * and its deliveries are seen, before the refresh reads the account's earliest; a transaction
 * that lowers one after the refresh locked it waits, and lowers what the refresh wrote. Refreshes
 * lock in account order, after every delivery row the transaction locks, so they do not deadlock
 * with each other or with claims.
 */

/** The accounts due by $1, earliest first: $4 of them after ($2, $3), a keyset page. */
const dueAccountsSql =
  '/* all accounts: the dispatcher finds the accounts with deliveries due (a reference table) */ ' +
  'SELECT account_id, next_attempt_at FROM due_accounts WHERE next_attempt_at <= $1 ' +
  'AND (next_attempt_at, account_id) > ($2, $3) ORDER BY next_attempt_at, account_id LIMIT $4';

/**
 * Of one account ($1), the first `$5` due deliveries (by $2) of each of its subscriptions but the
 * full ones ($3), leaving out the rows passed over ($4), unlocked, due first. The account's
 * subscriptions with deliveries still to send are found by skipping from one to the next in
 * `deliveries_due_by_subscription` (migration 18): two index seeks a subscription, however long
 * its queue (a slow receiver's backlog is never walked).
 */
const accountHeadsSql =
  'WITH RECURSIVE queued(id) AS (' +
  '(SELECT subscription_id FROM deliveries WHERE account_id = $1 AND next_attempt_at IS NOT NULL ' +
  'ORDER BY subscription_id LIMIT 1) ' +
  'UNION ALL SELECT (SELECT d.subscription_id FROM deliveries d WHERE d.account_id = $1 ' +
  'AND d.next_attempt_at IS NOT NULL AND d.subscription_id > queued.id ORDER BY d.subscription_id LIMIT 1) ' +
  'FROM queued WHERE queued.id IS NOT NULL' +
  ') SELECT head.id, head.subscription_id, head.next_attempt_at, head.pk FROM queued CROSS JOIN LATERAL (' +
  'SELECT d.id, d.subscription_id, d.next_attempt_at, d.pk FROM deliveries d WHERE d.account_id = $1 ' +
  'AND d.subscription_id = queued.id AND d.next_attempt_at <= $2 AND NOT (d.id = ANY($4::text[])) ' +
  'ORDER BY d.next_attempt_at, d.pk LIMIT $5) AS head ' +
  'WHERE queued.id IS NOT NULL AND NOT (queued.id = ANY($3::text[])) ' +
  'ORDER BY head.next_attempt_at, head.pk';

/** Of one account's deliveries named, those still due, locked; one another claimer holds is passed over. */
const lockDueSql =
  'SELECT data FROM deliveries WHERE account_id = $1 AND id = ANY($2::text[]) AND next_attempt_at <= $3 ' +
  'FOR UPDATE SKIP LOCKED';

/**
 * Makes the account's time no later than $2 (a delivery of it claimable then). A row already as
 * early is locked, not written (ON CONFLICT locks the rows it finds, updated or not): a write of
 * a reference table goes to every node.
 */
const lowerDueSql =
  'INSERT INTO due_accounts AS due (account_id, next_attempt_at) VALUES ($1, $2) ' +
  'ON CONFLICT (account_id) DO UPDATE SET next_attempt_at = excluded.next_attempt_at ' +
  'WHERE excluded.next_attempt_at < due.next_attempt_at';

/**
 * Locks the rows of the accounts named, in account order (the first step of a refresh; ON
 * CONFLICT locks the rows it finds, written or not): an account without one gets one, at the
 * earliest time there is ($1, ''), which the refresh then sets right, so that every row the
 * refresh writes is one this transaction holds.
 */
const lockDueAccountsSql = (count: number): string =>
  'INSERT INTO due_accounts AS due (account_id, next_attempt_at) VALUES ' +
  Array.from({ length: count }, (_, i) => `($${i + 2}, $1)`).join(', ') +
  ' ON CONFLICT (account_id) DO UPDATE SET next_attempt_at = due.next_attempt_at WHERE false';

/**
 * The account's earliest claimable delivery (read after its row of `due_accounts` is locked by
 * lockDueAccountsSql), then its time set to that, or its row deleted when it has none: two
 * statements, since Citus runs no statement that reads a distributed table and modifies a
 * reference one.
 */
const earliestDueSql =
  'SELECT min(next_attempt_at) AS at FROM deliveries WHERE account_id = $1 AND next_attempt_at IS NOT NULL';
const setDueSql = 'UPDATE due_accounts SET next_attempt_at = $2 WHERE account_id = $1';
const dropDueSql = 'DELETE FROM due_accounts WHERE account_id = $1';

/** Each account's read of its earliest delivery. */
const earliestReads = (sorted: readonly string[]): Statement[] =>
  sorted.map((account) => ({ sql: earliestDueSql, params: [account], rowMode: 'array' as const }));

/** The writes that set each account's time from its earliest delivery read (earliestReads). */
function dueWrites(sorted: readonly string[], results: readonly QueryResult[]): Statement[] {
  return sorted.map((account, i) => {
    const at = (results[i]?.rows[0] as unknown[] | undefined)?.[0] as string | null | undefined;
    return at == null ? { sql: dropDueSql, params: [account] } : { sql: setDueSql, params: [account, at] };
  });
}

/** Refreshes the accounts' times now, in this transaction (the claim reads them next). */
async function refreshDue(conn: Conn, accounts: Iterable<string>): Promise<void> {
  const sorted = [...new Set(accounts)].sort(byBytes);
  if (sorted.length === 0) return;
  const [, ...earliest] = await conn.batch([
    { sql: lockDueAccountsSql(sorted.length), params: ['', ...sorted] },
    ...earliestReads(sorted),
  ]);
  await conn.batch(dueWrites(sorted, earliest));
}

/** Refreshes the accounts' times with the COMMIT, after everything else the transaction does. */
function refreshDueAtCommit(conn: Conn, accounts: Iterable<string>): void {
  const sorted = [...new Set(accounts)].sort(byBytes);
  if (sorted.length === 0) return;
  conn.atCommit(lockDueAccountsSql(sorted.length), ['', ...sorted]);
  conn.atCommitFrom(earliestReads(sorted), (results) => dueWrites(sorted, results));
}

/** Byte order, as the "C" collation compares account ids. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Lowers the account's time to `at` with the COMMIT, unless the transaction lowered it as far already. */
function lowerDueAtCommit(conn: Conn, accountId: string, at: string): void {
  const lowered = conn.memo.loweredDue;
  const before = lowered.get(accountId);
  if (before !== undefined && before <= at) return;
  lowered.set(accountId, at);
  conn.atCommit(lowerDueSql, [accountId, at]);
}

/** A due delivery read unlocked: where it stands in the due order, and what its admission needs. */
interface Candidate {
  id: string;
  accountId: string;
  subscriptionId: string;
  at: string;
  pk: number;
}

const dueBefore = (a: Candidate, b: Candidate): boolean => a.at < b.at || (a.at === b.at && a.pk < b.pk);

/** Two due-ordered lists as one. */
function merged(a: readonly Candidate[], b: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && dueBefore(x, y))) {
      out.push(x as Candidate);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
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
      const gone = await conn.run('DELETE FROM deliveries WHERE subscription_id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      await conn.run('DELETE FROM delivery_attempts WHERE subscription_id = $1 AND account_id = $2', [
        id,
        accountId,
      ]);
      // Its deliveries due no more: the account's time may be later now.
      if (gone > 0) refreshDueAtCommit(conn, [accountId]);
      return true;
    },
    async activeFor(accountId, eventType) {
      // Read by the append of the event this is asked for, in its round trip (signals.ts).
      const key = activeHooksKey(accountId, eventType);
      const prefetched = conn.memo.activeHooks.get(key);
      if (prefetched !== undefined) {
        conn.memo.activeHooks.delete(key);
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
 * notification tells the other processes' dispatchers there is work (notifications.ts). Every
 * write that changes when a delivery is claimable keeps its account's row of `due_accounts`
 * right (see above).
 */
export function postgresDeliveries(
  conn: Conn,
  queued: (accountId: string) => void = () => {},
): DeliveryStore {
  const update =
    'UPDATE deliveries SET status = $1, next_attempt_at = $2, lease_id = $3, data = $4 ' +
    'WHERE id = $5 AND account_id = $6';
  const updateValues = (d: WebhookDelivery) => [...deliveryUpdateValues(d), d.accountId];
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
      const at = claimableAt(d);
      if (at !== null) lowerDueAtCommit(conn, d.accountId, at);
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
      await conn.run(update, updateValues(d));
      const at = claimableAt(d);
      if (at !== null) lowerDueAtCommit(conn, d.accountId, at);
      else refreshDueAtCommit(conn, [d.accountId]);
      if (d.status === 'pending') queued(d.accountId);
    },
    async list(query) {
      const where = new Conditions()
        .add((p) => `account_id = ${p}`, query.accountId)
        .add((p) => `subscription_id = ${p}`, query.subscriptionId);
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
      // Rounds, each over the first due deliveries still wanted, in due order across the due
      // accounts (read one account at a time, earliest first, until no later account could come
      // before them), leaving out the subscriptions and accounts known full, the rows passed over
      // and the rows past a subscription's room. Each is locked FOR UPDATE SKIP LOCKED inside its
      // account: a row another claimer holds right now is passed over, not waited for; once
      // leased (next_attempt_at moved to the lease's end) it is not due for anyone. Each round
      // leases rows, learns one more subscription or account to be full, or passes rows over, so
      // the loop ends; what it claims is what walking the due queue in order would admit. A
      // first-page claim stops after one round.
      const budget = claimBudget(claim);
      const claimed: WebhookDelivery[] = [];
      // The accounts due, read a page at a time as far as the rounds go (see dueAccount).
      const dueAccounts: { account_id: string; next_attempt_at: string }[] = [];
      let allDueRead = false;
      const passedOver = new Map<string, string[]>();
      // Accounts whose time this claim makes later: those it leased rows of, those it found none due in.
      const changed = new Set<string>();
      for (;;) {
        const want = claim.limit - claimed.length;
        if (want <= 0) break;
        const fullBefore = knownFull(budget);
        const passedBefore = [...passedOver.values()].reduce((n, ids) => n + ids.length, 0);
        const claimedBefore = claimed.length;
        const candidates = await firstDue(want);
        if (candidates.length === 0) break;
        const locked = await lockEach(candidates);
        for (const candidate of candidates) {
          if (claimed.length >= claim.limit) break;
          const data = locked.get(candidate.id);
          if (data === undefined) {
            passedOver.set(candidate.accountId, [
              ...(passedOver.get(candidate.accountId) ?? []),
              candidate.id,
            ]);
            continue;
          }
          const delivery = parseDelivery(data);
          if (!budget.admit(delivery)) continue;
          const next = leased(delivery, claim);
          await conn.run(update, updateValues(next));
          claimed.push(next);
          changed.add(next.accountId);
        }
        if (claim.thorough === false) break;
        const passed = [...passedOver.values()].reduce((n, ids) => n + ids.length, 0);
        if (claimed.length === claimedBefore && knownFull(budget) === fullBefore && passed === passedBefore)
          break;
      }
      // A claim that leased nothing refreshes now, so that nextClaimableAt in its transaction
      // reads the accounts' times as they are; one that leased refreshes with the COMMIT, after
      // the rows the dispatcher locks next (the subscriptions it reads), as every refresh does.
      if (claimed.length === 0) await refreshDue(conn, changed);
      else refreshDueAtCommit(conn, changed);
      return claimed;

      /** The `i`th account due (0 first), or undefined past the last: pages read as needed. */
      async function dueAccount(i: number) {
        const page = Math.max(claim.limit, 16);
        while (i >= dueAccounts.length && !allDueRead) {
          const last = dueAccounts.at(-1);
          const rows = await conn.rows<{ account_id: string; next_attempt_at: string }>(dueAccountsSql, [
            claim.now,
            last?.next_attempt_at ?? '',
            last?.account_id ?? '',
            page,
          ]);
          dueAccounts.push(...rows);
          allDueRead = rows.length < page;
        }
        return dueAccounts[i];
      }

      /** The first `want` due deliveries a claim could admit, in due order over the due accounts. */
      async function firstDue(want: number): Promise<Candidate[]> {
        const fullAccounts = new Set(budget.fullAccounts());
        const fullSubscriptions = budget.fullSubscriptions();
        let candidates: Candidate[] = [];
        for (let i = 0; ; i++) {
          const account = await dueAccount(i);
          if (account === undefined) break;
          const { account_id: accountId, next_attempt_at: dueAt } = account;
          if (fullAccounts.has(accountId)) continue;
          // The account's time is no later than its earliest: none of its rows could come first.
          const last = candidates[want - 1];
          if (last !== undefined && dueAt > last.at) break;
          const rows = await conn.rows<{
            id: string;
            subscription_id: string;
            next_attempt_at: string;
            pk: number;
          }>(accountHeadsSql, [
            accountId,
            claim.now,
            fullSubscriptions,
            passedOver.get(accountId) ?? [],
            want,
          ]);
          // Nothing due though its time said so (a time left early): set right. An account whose
          // rows were left out (full subscriptions, rows passed over) may well be due still.
          if (rows.length === 0 && fullSubscriptions.length === 0 && !passedOver.has(accountId)) {
            changed.add(accountId);
          }
          const own = rows.map((row) => ({
            id: row.id,
            accountId,
            subscriptionId: row.subscription_id,
            at: row.next_attempt_at,
            pk: Number(row.pk),
          }));
          // A subscription's rows past its room could never be admitted: left out.
          const taken = new Map<string, number>();
          candidates = merged(candidates, own)
            .filter((c) => {
              const n = taken.get(c.subscriptionId) ?? 0;
              if (n >= budget.room(c.subscriptionId)) return false;
              taken.set(c.subscriptionId, n + 1);
              return true;
            })
            .slice(0, want);
        }
        return candidates;
      }

      /** The candidates' rows, locked and still due, by id: one statement per account. */
      async function lockEach(candidates: readonly Candidate[]): Promise<Map<string, string>> {
        const byAccount = new Map<string, string[]>();
        for (const c of candidates) byAccount.set(c.accountId, [...(byAccount.get(c.accountId) ?? []), c.id]);
        const locked = new Map<string, string>();
        for (const [accountId, ids] of byAccount) {
          for (const data of await conn.values<string>(lockDueSql, [accountId, ids, claim.now])) {
            locked.set(parseDelivery(data).id, data);
          }
        }
        return locked;
      }
    },
    async recordAttempts(records) {
      const applied: boolean[] = [];
      const accounts: string[] = [];
      for (const { delivery, leaseId, attempt } of records) {
        const changed = await conn.run(`${update} AND status = 'sending' AND lease_id = $7`, [
          ...updateValues(delivery),
          leaseId,
        ]);
        if (changed === 1 && attempt) await insertAttempt(attempt);
        if (changed === 1) accounts.push(delivery.accountId);
        applied.push(changed === 1);
      }
      // Sent, or due again later: the accounts' times move on, after every row above is locked.
      refreshDueAtCommit(conn, accounts);
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
          '/* all accounts: when the dispatcher next has work (a reference table) */ ' +
            'SELECT next_attempt_at FROM due_accounts ORDER BY next_attempt_at LIMIT 1',
        )) ?? null
      );
    },
  };
}
