import type { CollectionName, DumpPage, DumpRows, DumpStore, DumpTable } from '../../core/port/index.js';
import { eachCollection, tableOf } from '../shared/collection-table.js';
import { columnRecords } from '../shared/dump-records.js';
import { sessionColumns } from '../shared/session-rows.js';
import { isWatchDumpTable, keyedPage, type WatchDumpTable } from '../shared/watch-dump.js';
import type { Conn } from './connection.js';
import { signalsPage, toEvent } from './signals.js';
import { membershipColumns, tokenColumns, userColumns, workspaceColumns } from './tenancy.js';

type Row = Record<string, unknown>;

interface Source<Table extends DumpTable> {
  table: string;
  columns: string;
  /** The column pages are ordered and resumed by: insertion order, or the sequence. */
  key: string;
  toRecord: (row: Row) => DumpRows[Table];
}

const fromData = <Table extends DumpTable>(table: string): Source<Table> => ({
  table,
  columns: 'data',
  key: 'pk',
  toRecord: (r) => JSON.parse(r.data as string) as DumpRows[Table],
});

/** A table kept in columns, read in insertion order. */
const fromColumns = <Table extends keyof typeof columnRecords>(
  table: Table,
  columns: string,
): Source<Table> => ({
  table,
  columns,
  key: 'pk',
  toRecord: columnRecords[table],
});

/** Where each dumped table lives, and how one of its rows becomes the record the stores return. */
const sources: { [Table in Exclude<DumpTable, WatchDumpTable>]: Source<Table> } = {
  accounts: fromColumns('accounts', 'id, name, created_at'),
  workspaces: fromColumns('workspaces', workspaceColumns),
  users: fromColumns('users', userColumns),
  memberships: fromColumns('memberships', membershipColumns),
  tokens: fromColumns('tokens', tokenColumns),
  sessions: fromColumns('sessions', sessionColumns),
  ...(eachCollection((name) => fromData(tableOf[name])) as { [Name in CollectionName]: Source<Name> }),
  counters: fromColumns('counters', 'workspace_id, name, value'),
  signals: {
    table: 'signals',
    columns: 'sequence, data',
    key: 'sequence',
    toRecord: (r) => toEvent({ sequence: r.sequence as number, data: r.data as string }),
  },
  idempotency: fromData('idempotency_keys'),
  webhooks: fromData('webhooks'),
  deliveries: fromData('deliveries'),
  deliveryAttempts: fromData('delivery_attempts'),
};

/**
 * Reads tables in insertion order (`pk`; signals in sequence order): a copy inserted in this
 * order lists ties (memberships, subscriptions, due deliveries) as the source did. The cursor is
 * the last row's key.
 */
export function postgresDump(conn: Conn): DumpStore {
  return {
    async page(table, after, limit) {
      // Sequences are per account: signals page by account and sequence (signals.ts).
      if (table === 'signals') return (await signalsPage(conn, after, limit)) as DumpPage<typeof table>;
      // Every page of one snapshot (a read transaction's; a write one reads what committed).
      await conn.consistent();
      if (isWatchDumpTable(table)) {
        const { sql, params, page } = keyedPage(table, after, limit, (i) => `$${i}`);
        const rows = await conn.rows<Row>(
          `/* all accounts: a whole-database copy reads every table */ ${sql}`,
          params,
        );
        return page(rows) as unknown as DumpPage<typeof table>;
      }
      const source = sources[table as Exclude<typeof table, WatchDumpTable>] as Source<typeof table>;
      const rows = await conn.rows<Row & { dump_key: number }>(
        '/* all accounts: a whole-database copy reads every table */ ' +
          `SELECT ${source.key} AS dump_key, ${source.columns} FROM ${source.table} ` +
          `WHERE ${source.key} > $1 ORDER BY ${source.key} LIMIT $2`,
        [after === null ? 0 : Number(after), limit],
      );
      const last = rows.at(-1);
      return {
        rows: rows.map((row) => source.toRecord(row)),
        next: rows.length === limit && last ? String(last.dump_key) : null,
      };
    },
  };
}
