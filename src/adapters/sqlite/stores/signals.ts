import type { SignalEvent } from '../../../core/model.js';
import type { SignalQuery, SignalStore } from '../../../core/port/index.js';
import { withFields } from '../../../core/with-fields.js';
import { eventText } from '../../shared/event-text.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { withUniqueRules } from './unique-rules.js';

export const toEvent = (row: { sequence: number; data: string }): SignalEvent =>
  withFields(JSON.parse(row.data) as Omit<SignalEvent, 'sequence'>, { sequence: row.sequence });

/**
 * The types a query asks for as one JSON array, whatever their number (one statement for every
 * such query), or null when it asks for every type.
 */
function typesParam(types: readonly string[] | undefined): string | null {
  return types && types.length > 0 ? JSON.stringify([...new Set(types)].sort()) : null;
}

/** The account, types and resource conditions of a query. */
function conditions(query: Omit<SignalQuery, 'afterSequence' | 'limit'>) {
  const clauses = ['account_id = ?'];
  const params: unknown[] = [query.accountId];
  const types = typesParam(query.types);
  if (types !== null) {
    clauses.push('type IN (SELECT value FROM json_each(?))');
    params.push(types);
  }
  if (query.resourceId !== undefined) {
    clauses.push('resource_id = ?');
    params.push(query.resourceId);
  }
  return { clauses, params };
}

/** Takes the events a purge is about to delete off the kept counts, one change per account and type. */
const uncountPurgedSql =
  'UPDATE signal_counts SET n = n - purged.deleted FROM (SELECT account_id, type, COUNT(*) AS deleted FROM signals ' +
  'WHERE occurred_at < ? GROUP BY account_id, type) AS purged ' +
  'WHERE signal_counts.account_id = purged.account_id AND signal_counts.type = purged.type';

const sqliteSignalsMethods: SignalStore & ThisType<TransactionBound> = {
  async append(event, text) {
    const { conn } = this;
    const { id, accountId, type, resource, occurredAt } = event;
    const data = eventText(event, text);
    // The sequence is the row's rowid (INTEGER PRIMARY KEY).
    const sequence = conn.insert(
      'INSERT INTO signals (id, account_id, type, resource_id, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?)',
      [id, accountId, type, resource.id, occurredAt, data],
    );
    // One more of its account and type in the kept counts (migration 9), at the group's end.
    conn.defer((bookkeeping) => bookkeeping.countSignal(accountId, type));
    // The event as stored, without parsing back what was just serialized.
    return withFields(event, { sequence });
  },
  async list(query) {
    const { conn } = this;
    const { clauses, params } = conditions(query);
    if (query.afterSequence !== undefined) {
      clauses.push('sequence > ?');
      params.push(query.afterSequence);
    }
    return conn
      .rows<{ sequence: number; data: string }>(
        `SELECT sequence, data FROM signals WHERE ${clauses.join(' AND ')} ORDER BY sequence LIMIT ?`,
        [...params, query.limit],
      )
      .map(toEvent);
  },
  async count(query) {
    const { conn } = this;
    // By resource: counted, a resource has few events. Otherwise the kept counts (migration 9).
    if (query.resourceId === undefined) {
      const types = typesParam(query.types);
      const sql =
        'SELECT COALESCE(SUM(n), 0) FROM signal_counts WHERE account_id = ?' +
        (types === null ? '' : ' AND type IN (SELECT value FROM json_each(?))');
      return conn.value<number>(sql, types === null ? [query.accountId] : [query.accountId, types]) ?? 0;
    }
    const { clauses, params } = conditions(query);
    return conn.value<number>(`SELECT COUNT(*) FROM signals WHERE ${clauses.join(' AND ')}`, params) ?? 0;
  },
  async get(accountId, id) {
    const { conn } = this;
    const row = conn.row<{ sequence: number; data: string }>(
      'SELECT sequence, data FROM signals WHERE id = ? AND account_id = ?',
      [id, accountId],
    );
    return row === undefined ? null : toEvent(row);
  },
  async latestSequence() {
    const { conn } = this;
    // sqlite_sequence remembers the highest sequence even after a purge deleted the rows.
    return conn.value<number>("SELECT seq FROM sqlite_sequence WHERE name = 'signals'") ?? 0;
  },
  async restore(event) {
    const { conn } = this;
    const { sequence, id, accountId, type, resource, occurredAt } = event;
    const { sequence: _, ...stored } = event;
    withUniqueRules({ 'signals.sequence': 'signal.sequence' }, () =>
      conn.run(
        'INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?)',
        [sequence, id, accountId, type, resource.id, occurredAt, JSON.stringify(stored)],
      ),
    );
    conn.defer((bookkeeping) => bookkeeping.countSignal(accountId, type));
  },
  async continueAfter(sequence) {
    const { conn } = this;
    // AUTOINCREMENT hands out max(seq in sqlite_sequence, largest key) + 1: raising seq is enough.
    const raised = conn.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'signals'", [
      sequence,
    ]);
    if (raised === 0) conn.run("INSERT INTO sqlite_sequence (name, seq) VALUES ('signals', ?)", [sequence]);
  },
  async purge(before) {
    const { conn } = this;
    conn.run(uncountPurgedSql, [before]);
    return conn.run('DELETE FROM signals WHERE occurred_at < ?', [before]);
  },
};

/**
 * The signal log. Sequences come from an AUTOINCREMENT key: transactions are serialized, so
 * they increase in commit order, and a rolled-back append takes its row (and the counter) back.
 */
export function sqliteSignals(conn: Conn): SignalStore {
  const m = sqliteSignalsMethods;
  const store = {
    conn,
    append: m.append,
    list: m.list,
    count: m.count,
    get: m.get,
    latestSequence: m.latestSequence,
    restore: m.restore,
    continueAfter: m.continueAfter,
    purge: m.purge,
  };
  return store;
}
