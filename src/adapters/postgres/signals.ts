import type { SignalEvent } from '../../core/model.js';
import { type SignalQuery, type SignalStore, UniqueViolation } from '../../core/port/index.js';
import { withFields } from '../../core/with-fields.js';
import { eventText } from '../shared/event-text.js';
import { type Conn, type Prepared, prepared } from './connection.js';
import { purgeLockTaken } from './purge-lock.js';
import { Conditions } from './sql.js';

export const toEvent = (row: { sequence: number; data: string }): SignalEvent =>
  withFields(JSON.parse(row.data) as Omit<SignalEvent, 'sequence'>, { sequence: row.sequence });

/** The account, types and resource conditions of a query. */
function conditions(query: Omit<SignalQuery, 'afterSequence' | 'limit'>): Conditions {
  const where = new Conditions().add((p) => `account_id = ${p}`, query.accountId);
  if (query.types && query.types.length > 0) where.add((p) => `type = ANY(${p}::text[])`, query.types);
  if (query.resourceId !== undefined) where.add((p) => `resource_id = ${p}`, query.resourceId);
  return where;
}

/** Where append leaves the subscriptions that want its event, for `WebhookStore.activeFor`. */
export const activeHooksKey = (accountId: string, type: string): string =>
  `webhooks.active\u0000${accountId}\u0000${type}`;

const appendStatements = new Map<string, Prepared>();

/**
 * The account's append lock is an advisory lock per account, in a key space of its own
 * (1869574504), so it cannot collide with the adapter's other advisory locks.
 *
 * One round trip for an append: the write held back before it (a collection insert), the
 * account's append lock, `nextval` and the insert (the lock is taken first: the insert reads the
 * lock's row, so its `nextval` runs once the lock is held), and the account's active
 * subscriptions that want the event, which the outbox asks for next.
 */
function appendStatement(heldSql: string | undefined, sharedLock: boolean, lock: boolean): Prepared {
  const cacheKey = `${lock}\u0000${sharedLock}\u0000${heldSql ?? ''}`;
  const cached = appendStatements.get(cacheKey);
  if (cached) return cached;
  const shift = Math.max(0, ...(heldSql?.match(/\$\d+/g) ?? []).map((m) => Number(m.slice(1))));
  const p = (n: number) => `$${n + shift}`;
  const withs = [
    ...(heldSql === undefined ? [] : [`held AS (${heldSql} RETURNING 1)`]),
    // The held write's predicate lock (collections.ts), taken before the append lock.
    sharedLock
      ? `shared AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(1869574507, hashtext(${p(7)})))`
      : 'shared AS MATERIALIZED (SELECT 1)',
    lock
      ? `locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(1869574504, hashtext(${p(2)})) FROM shared)`
      : 'locked AS MATERIALIZED (SELECT 1 FROM shared)',
    'added AS (INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
      `SELECT nextval('signal_sequence'), ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)} FROM locked RETURNING sequence)`,
  ];
  // Evaluated left to right: the sequence (and with it both locks) before the held write.
  const statement = prepared(
    `WITH ${withs.join(', ')} SELECT (SELECT sequence FROM added) AS sequence, ` +
      `ARRAY(SELECT data FROM webhooks WHERE account_id = ${p(2)} AND status = 'active' ` +
      `AND event_types && ARRAY[${p(3)}, '*']::text[] ORDER BY pk) AS hooks, ` +
      `${heldSql === undefined ? 'NULL::int' : '(SELECT count(*)::int FROM held)'} AS held`,
  );
  appendStatements.set(cacheKey, statement);
  return statement;
}

/** What a transaction's memo keeps about an account's append drawn ahead (drawAhead). */
export interface DrawnAhead {
  sequence: number;
  /** The account's active subscriptions: each one's text and the event types it wants. */
  hooks: { data: string; types: string[] }[];
}

/** Where a transaction keeps the append it drew ahead for an account. */
export const drawnAheadKey = (accountId: string): string => `signals.drawn\u0000${accountId}`;

/** A signal whose sequence was drawn ahead: inserted with the COMMIT (Conn.atCommit). */
const insertDrawnSql =
  'INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
  'VALUES ($1, $2, $3, $4, $5, $6, $7)';

/**
 * The SQL of a statement's part that draws an account's append ahead: the append lock (after
 * what `after` names, a CTE of the statement: the locks keep their order), `nextval` under it,
 * and the account's active subscriptions with the types they want. `$account` is the account's
 * parameter. Its columns: `sequence`, `hooks`, `hook_types`.
 */
export function drawAheadSql(after: string, account: string): { withs: string[]; columns: string } {
  return {
    withs: [
      `append_locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(1869574504, hashtext(${account})) FROM ${after})`,
      "drawn AS MATERIALIZED (SELECT nextval('signal_sequence') AS sequence FROM append_locked)",
    ],
    columns:
      '(SELECT sequence FROM drawn) AS sequence, ' +
      `ARRAY(SELECT data FROM webhooks WHERE account_id = ${account} AND status = 'active' ORDER BY pk) AS hooks, ` +
      `ARRAY(SELECT array_to_string(event_types, ' ') FROM webhooks WHERE account_id = ${account} ` +
      "AND status = 'active' ORDER BY pk) AS hook_types",
  };
}

/** Keeps what drawAheadSql's columns answered, for the account's next append in the transaction. */
export function keepDrawnAhead(
  conn: Conn,
  accountId: string,
  row: { sequence: number; hooks: string[]; hook_types: string[] },
): void {
  const hooks = row.hooks.map((data, i) => ({ data, types: (row.hook_types[i] ?? '').split(' ') }));
  conn.memo.set(drawnAheadKey(accountId), { sequence: row.sequence, hooks } satisfies DrawnAhead);
}

/**
 * Makes `signal_sequence` hand out numbers above $1 from now on, never lowering it. (A sequence
 * is not transactional: a copy that fails afterwards leaves it raised, which only skips numbers.)
 */
const raiseSequenceSql =
  "SELECT setval('signal_sequence', $1) FROM signal_sequence " +
  'WHERE $1 > (CASE WHEN is_called THEN last_value ELSE last_value - 1 END)';

/**
 * Called by the transaction with the account of every event it appends, so that after commit
 * the other processes can be told (see notifications.ts).
 */
export type AppendObserver = (accountId: string) => void;

/**
 * The signal log. A sequence is a `signal_sequence` value taken while holding the account's
 * append lock, an advisory lock that lasts until the transaction ends: of two transactions
 * appending to one account, the second takes its number only after the first committed or
 * rolled back, so within an account sequences increase in commit order and a reader paging by
 * sequence never skips an event that commits later with a lower number. Accounts do not wait
 * for each other. A rolled-back append leaves a gap in the numbers, never an event.
 */
export function postgresSignals(conn: Conn, appended: AppendObserver): SignalStore {
  const locked = new Set<string>();
  return {
    async append(event, text) {
      const { id, accountId, type, resource, occurredAt } = event;
      const drawn = conn.writing
        ? (conn.memo.get(drawnAheadKey(accountId)) as DrawnAhead | undefined)
        : undefined;
      if (drawn !== undefined) {
        // The append lock is held and the sequence drawn (drawAheadSql): nothing left to ask,
        // so the insert goes with the COMMIT, and the lock is held until then as ever.
        conn.memo.delete(drawnAheadKey(accountId));
        locked.add(accountId);
        const data = eventText(event, text);
        conn.atCommit(insertDrawnSql, [drawn.sequence, id, accountId, type, resource.id, occurredAt, data]);
        const wanted = drawn.hooks.filter(({ types }) => types.includes(type) || types.includes('*'));
        conn.memo.set(
          activeHooksKey(accountId, type),
          wanted.map((hook) => hook.data),
        );
        appended(accountId);
        return toEvent({ sequence: drawn.sequence, data });
      }
      const held = conn.writing ? conn.takeHeld() : undefined;
      const statement = appendStatement(held?.sql, held?.sharedLock !== undefined, !locked.has(accountId));
      const data = eventText(event, text);
      const row = await conn.row<{ sequence: number; hooks: string[]; held: number | null }>(statement, [
        ...(held?.params ?? []),
        id,
        accountId,
        type,
        resource.id,
        occurredAt,
        data,
        ...(held?.sharedLock !== undefined ? [held.sharedLock] : []),
      ]);
      locked.add(accountId);
      if (held) await held.check(row?.held ?? 0);
      if (row?.sequence == null) throw new Error('signal insert returned no sequence');
      // The outbox asks next which subscriptions want this event (see webhooks.ts).
      conn.memo.set(activeHooksKey(accountId, type), row.hooks);
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
      // The account's highest committed sequence: any of its events that commits later took its
      // number after that one committed (the append lock), so it is higher. A purge (and a copy)
      // remembers the highest it knew of, so the answer survives a purge of every event.
      const highest =
        accountId === undefined
          ? 'SELECT MAX(sequence) FROM signals'
          : 'SELECT MAX(sequence) FROM signals WHERE account_id = $1';
      const latest = await conn.value<number>(
        `SELECT GREATEST((${highest}), (SELECT purged_through FROM signal_purges))`,
        accountId === undefined ? [] : [accountId],
      );
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
      await conn.run(raiseSequenceSql, [sequence]);
    },
    async continueAfter(sequence) {
      await conn.run(raiseSequenceSql, [sequence]);
      await conn.run('UPDATE signal_purges SET purged_through = GREATEST(purged_through, $1)', [sequence]);
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'signals'))) return 0;
      const purged = await conn.row<{ count: number; highest: number | null }>(
        'WITH gone AS (DELETE FROM signals WHERE occurred_at < $1 RETURNING sequence) ' +
          'SELECT COUNT(*)::int AS count, MAX(sequence) AS highest FROM gone',
        [before],
      );
      if (purged?.highest != null) {
        await conn.run('UPDATE signal_purges SET purged_through = GREATEST(purged_through, $1)', [
          purged.highest,
        ]);
      }
      return purged?.count ?? 0;
    },
  };
}
