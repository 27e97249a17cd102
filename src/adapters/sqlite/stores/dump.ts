import type { DumpPage, DumpRows, DumpStore, DumpTable } from '../../../core/port/index.js';
import { eachCollection, tableOf } from '../../shared/collection-table.js';
import { columnRecords } from '../../shared/dump-records.js';
import { type KeyedSource, keyedPage } from '../../shared/keyed-dump.js';
import { isWatchDumpTable, type WatchDumpTable, watchDumpSources } from '../../shared/watch-dump.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { fromStoredRecord } from './records.js';
import { toEvent } from './signals.js';

type Row = Record<string, unknown>;

/** Where each dumped table lives, and how one of its rows becomes the record the stores return. */
const sources: {
  [Table in Exclude<DumpTable, WatchDumpTable>]: { table: string; toRecord: (row: Row) => DumpRows[Table] };
} = {
  accounts: { table: 'accounts', toRecord: columnRecords.accounts },
  workspaces: { table: 'workspaces', toRecord: columnRecords.workspaces },
  users: { table: 'users', toRecord: columnRecords.users },
  memberships: { table: 'memberships', toRecord: columnRecords.memberships },
  tokens: { table: 'tokens', toRecord: columnRecords.tokens },
  sessions: { table: 'sessions', toRecord: columnRecords.sessions },
  ...eachCollection((name) => ({ table: tableOf[name], toRecord: (r: Row) => JSON.parse(r.data as string) })),
  counters: { table: 'counters', toRecord: columnRecords.counters },
  signals: {
    table: 'signals',
    toRecord: (r) => toEvent({ sequence: r.sequence as number, data: r.data as string }),
  },
  idempotency: { table: 'idempotency_keys', toRecord: (r) => fromStoredRecord(r.data as string) },
  webhooks: { table: 'webhooks', toRecord: (r) => JSON.parse(r.data as string) },
  deliveries: { table: 'deliveries', toRecord: (r) => JSON.parse(r.data as string) },
  deliveryAttempts: { table: 'delivery_attempts', toRecord: (r) => JSON.parse(r.data as string) },
};

const sqliteDumpMethods: DumpStore & ThisType<TransactionBound> = {
  async page(table, after, limit) {
    const { conn } = this;
    if (isWatchDumpTable(table)) {
      // WITHOUT ROWID tables: paged by their key.
      const { sql, params, page } = keyedPage(
        watchDumpSources[table] as KeyedSource<typeof table>,
        after,
        limit,
        () => '?',
      );
      return page(conn.rows<Row>(sql, params)) as DumpPage<typeof table>;
    }
    const { table: name, toRecord } = sources[table as Exclude<typeof table, WatchDumpTable>];
    const rows = conn.rows<Row & { dump_rowid: number }>(
      `SELECT rowid AS dump_rowid, * FROM ${name} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      [after === null ? 0 : Number(after), limit],
    );
    const last = rows.at(-1);
    return {
      rows: rows.map((row) => toRecord(row) as DumpRows[typeof table]),
      next: rows.length === limit && last ? String(last.dump_rowid) : null,
    };
  },
};

/**
 * Reads tables in rowid order, which is insertion order: a copy inserted in this order lists
 * ties (memberships, subscriptions, due deliveries) as the source did. The cursor is the rowid.
 */
export function sqliteDump(conn: Conn): DumpStore {
  const m = sqliteDumpMethods;
  const store = { conn, page: m.page };
  return store;
}
