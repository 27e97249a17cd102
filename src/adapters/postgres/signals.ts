import type { SignalEvent } from '../../core/model.js';
import { type SignalQuery, type SignalStore, UniqueViolation } from '../../core/port/index.js';
import { withFields } from '../../core/with-fields.js';
import { eventText } from '../shared/event-text.js';
import { type Conn, prepared } from './connection.js';
import { purgeLockTaken } from './purge-lock.js';
import { Conditions } from './sql.js';
import { lockShared, sharedSql } from './tenant-locks.js';
import { activeHooksKey } from './transaction-memo.js';

export const toEvent = (row: { sequence: number; data: string }): SignalEvent =>
  withFields(JSON.parse(row.data) as Omit<SignalEvent, 'sequence'>, { sequence: row.sequence });

/** The account, types and resource conditions of a query. */
function conditions(query: Omit<SignalQuery, 'afterSequence' | 'limit'>): Conditions {
  const where = new Conditions().add((p) => `account_id = ${p}`, query.accountId);
  if (query.types && query.types.length > 0) where.add((p) => `type = ANY(${p}::text[])`, query.types);
  if (query.resourceId !== undefined) where.add((p) => `resource_id = ${p}`, query.resourceId);
  return where;
}

/**
 * An append's statements, sent together (Conn.batch: one round trip on a pipelining pool) and
 * run in this order: the held write's predicate lock (collections.ts, tenant-locks.ts), taken
 * before the account's row; the account's next sequence (its row locked) with its active
 * subscriptions that want the event, which the outbox asks for next; the held write; and the
 * signal, numbered from the account's row as this transaction left it. Separate statements, not
 * one of data-modifying CTEs: Citus runs a CTE that inserts apart from the rest of its statement,
 * through the coordinator, and each of these reaches the account's shard alone.
 */
/** The account's ($1) next sequence, its row locked until the transaction ends: a CTE named `drawn`. */
const drawnCte =
  'drawn AS (UPDATE accounts SET last_sequence = last_sequence + 1 WHERE id = $1 RETURNING last_sequence)';

/** The account's ($1) next sequence, as `sequence`, and the select list goes on. */
const drawnSequence = `WITH ${drawnCte} SELECT (SELECT last_sequence FROM drawn) AS sequence, `;

/** $1 the account, $2 the event's type. */
const drawSql = prepared(
  drawnSequence +
    "ARRAY(SELECT data FROM webhooks WHERE account_id = $1 AND status = 'active' " +
    "AND event_types && ARRAY[$2::text, '*']::text[] ORDER BY pk) AS hooks",
  { accountParam: 1 },
);

/** $1 id, $2 account, $3 type, $4 resource, $5 time, $6 text: numbered by the account's row. */
const insertNumberedSql = prepared(
  'INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
    'SELECT accounts.last_sequence, $1::text, accounts.id, $3::text, $4::text, $5::text, $6::text ' +
    'FROM accounts WHERE accounts.id = $2::text',
);

/** A signal whose sequence was drawn ahead: inserted with the COMMIT (Conn.atCommit). */
const insertDrawnSql =
  'INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
  'VALUES ($1, $2, $3, $4, $5, $6, $7)';

/**
 * drawAheadSql's parts, for a statement that draws the append ahead with other work of its own
 * ($1 the account there too): the CTE to list in its WITH, and the columns to select.
 */
export const drawAhead = {
  cte: drawnCte,
  columns:
    '(SELECT last_sequence FROM drawn) AS sequence, ' +
    "ARRAY(SELECT data FROM webhooks WHERE account_id = $1 AND status = 'active' ORDER BY pk) AS hooks, " +
    "ARRAY(SELECT array_to_string(event_types, ' ') FROM webhooks WHERE account_id = $1 " +
    "AND status = 'active' ORDER BY pk) AS hook_types",
};

/**
 * Draws an account's append ahead ($1 the account): its next sequence, its row locked, and its
 * active subscriptions with the types they want. Sent after the locks its transaction takes
 * first, so that they keep their order. Its columns: `sequence`, `hooks`, `hook_types`.
 */
export const drawAheadSql = prepared(`WITH ${drawAhead.cte} SELECT ${drawAhead.columns}`, {
  accountParam: 1,
});

/** Keeps what drawAheadSql answered, for the account's next append in the transaction. */
export function keepDrawnAhead(
  conn: Conn,
  accountId: string,
  row: { sequence: number; hooks: string[]; hook_types: string[] },
): void {
  const hooks = row.hooks.map((data, i) => ({ data, types: (row.hook_types[i] ?? '').split(' ') }));
  conn.memo.drawnAhead.set(accountId, { sequence: row.sequence, hooks });
}

/** Raises the account's latest sequence to $1 (a restored event's), never lowering it. */
const raiseAccountSql = 'UPDATE accounts SET last_sequence = $1 WHERE id = $2 AND last_sequence < $1';

/**
 * Raises every account's latest sequence to $1, never lowering one: the copy of a whole
 * database carries on from the source's latest sequence.
 */
const raiseAllSql =
  '/* all accounts: a whole-database copy continues after the latest sequence of its source */ ' +
  'UPDATE accounts SET last_sequence = $1 WHERE last_sequence < $1';

/**
 * The latest sequence of every account: the highest of the accounts' rows (purged events
 * included) and of the events stored (events restored for an account the copy has no row of).
 */
const latestOfAllSql =
  '/* all accounts: the latest sequence of a whole database, for a copy */ ' +
  'SELECT GREATEST((SELECT max(last_sequence) FROM accounts), (SELECT max(sequence) FROM signals))';

const latestOfAccountSql = prepared(
  'SELECT GREATEST((SELECT last_sequence FROM accounts WHERE id = $1), ' +
    '(SELECT max(sequence) FROM signals WHERE account_id = $1))',
);

/**
 * Called by the transaction with the account of every event it appends, so that after commit
 * the other processes can be told (see notifications.ts).
 */
export type AppendObserver = (accountId: string) => void;

/**
 * The signal log, one sequence per account. An append takes the account's next sequence by
 * updating its row (`accounts.last_sequence`), whose lock lasts until the transaction ends: of
 * two transactions appending to one account, the second takes its number only after the first
 * committed or rolled back, so within an account sequences increase in commit order and a reader
 * paging by sequence never skips an event that commits later with a lower number. Accounts do
 * not wait for each other, and every statement stays in its account. A rolled-back append gives
 * its number back with the row's update.
 */
export function postgresSignals(conn: Conn, appended: AppendObserver): SignalStore {
  return {
    async append(event, text) {
      const { id, accountId, type, resource, occurredAt } = event;
      const drawn = conn.writing ? conn.memo.drawnAhead.get(accountId) : undefined;
      if (drawn !== undefined) {
        // The account's row is locked and the sequence drawn (drawAheadSql): nothing left to
        // ask, so the insert goes with the COMMIT, and the row stays locked until then as ever.
        conn.memo.drawnAhead.delete(accountId);
        const data = eventText(event, text);
        conn.atCommit(insertDrawnSql, [drawn.sequence, id, accountId, type, resource.id, occurredAt, data]);
        const wanted = drawn.hooks.filter(({ types }) => types.includes(type) || types.includes('*'));
        conn.memo.activeHooks.set(
          activeHooksKey(accountId, type),
          wanted.map((hook) => hook.data),
        );
        appended(accountId);
        return toEvent({ sequence: drawn.sequence, data });
      }
      const held = conn.writing ? conn.takeHeld() : undefined;
      const data = eventText(event, text);
      const lock = held?.sharedLock;
      if (lock !== undefined && lock.accountId !== accountId) {
        // Not this account's lock (never so for a request): taken on its own, before the write.
        await lockShared(conn, lock.accountId, lock.name);
      }
      const sameAccountLock = lock !== undefined && lock.accountId === accountId;
      const results = await conn.batch([
        ...(sameAccountLock ? [{ sql: sharedSql, params: [accountId, lock.name] }] : []),
        { sql: drawSql, params: [accountId, type] },
        // The labels that follow an issue's insert (labels.ts) go with it: its id is new, so it clashes with nothing.
        ...(held ? [{ sql: held.sql, params: held.params }, ...(held.after ?? [])] : []),
        { sql: insertNumberedSql, params: [id, accountId, type, resource.id, occurredAt, data] },
      ]);
      const [locked, drawnRow, heldResult] = sameAccountLock ? results : [undefined, ...results];
      // A lock row this storage saw made by a transaction rolled back since: made and locked
      // now, still before the commit, which is all the predicate lock asks (tenant-locks.ts).
      if (sameAccountLock && (locked?.rowCount ?? 0) === 0) await lockShared(conn, lock.accountId, lock.name);
      if (held) await held.check(heldResult?.rowCount ?? 0);
      const row = drawnRow?.rows[0] as { sequence: number | null; hooks: string[] } | undefined;
      if (row?.sequence == null) throw new Error(`no account ${accountId} to append a signal to`);
      // The outbox asks next which subscriptions want this event (see webhooks.ts).
      conn.memo.activeHooks.set(activeHooksKey(accountId, type), row.hooks);
      appended(accountId);
      return toEvent({ sequence: row.sequence, data });
    },
    async list(query) {
      const where = conditions(query);
      if (query.afterSequence !== undefined) where.add((p) => `sequence > ${p}`, query.afterSequence);
      const limit = where.param(query.limit);
      const rows = await conn.rows<{ sequence: number; data: string }>(
        `SELECT sequence, data FROM signals WHERE ${where.sql} ORDER BY sequence LIMIT ${limit}`,
        where.params,
      );
      return rows.map(toEvent);
    },
    async count(query) {
      const where = conditions(query);
      return (
        (await conn.value<number>(`SELECT COUNT(*)::int FROM signals WHERE ${where.sql}`, where.params)) ?? 0
      );
    },
    async get(accountId, id) {
      const row = await conn.row<{ sequence: number; data: string }>(
        'SELECT sequence, data FROM signals WHERE id = $1 AND account_id = $2',
        [id, accountId],
      );
      return row === undefined ? null : toEvent(row);
    },
    async latestSequence(accountId) {
      // The account's row holds its highest committed sequence: any of its events that commits
      // later took its number from the row after that one committed (the row's lock), so it is
      // higher. Purges leave the row as it is.
      const latest =
        accountId === undefined
          ? await conn.value<number | null>(latestOfAllSql)
          : await conn.value<number | null>(latestOfAccountSql, [accountId]);
      return latest ?? 0;
    },
    async restore(event) {
      const { sequence, id, accountId, type, resource, occurredAt } = event;
      const { sequence: _, ...stored } = event;
      const inserted = await conn.run(
        'INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
          'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING',
        [sequence, id, accountId, type, resource.id, occurredAt, JSON.stringify(stored)],
      );
      if (inserted === 0) throw new UniqueViolation('signal.sequence');
      await conn.run(raiseAccountSql, [sequence, accountId]);
    },
    async continueAfter(sequence) {
      await conn.run(raiseAllSql, [sequence]);
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'signals'))) return 0;
      // The accounts' rows keep their latest sequences: nothing to remember of what goes.
      return conn.run(
        '/* all accounts: the retention purge, a maintenance job */ DELETE FROM signals WHERE occurred_at < $1',
        [before],
      );
    },
  };
}
