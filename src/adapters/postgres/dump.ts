import type { CollectionName, DumpRows, DumpStore, DumpTable } from '../../core/port/index.js';
import { eachCollection, tableOf } from '../shared/collection-table.js';
import { columnRecords } from '../shared/dump-records.js';
import { type KeyedSource, keyedPage } from '../shared/keyed-dump.js';
import { sessionColumns } from '../shared/session-rows.js';
import { type WatchDumpTable, watchDumpSources } from '../shared/watch-dump.js';
import type { Conn } from './connection.js';
import { toEvent } from './signals.js';
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

/** The tables paged by a key of their own (keyed-dump.ts), not by `pk`. */
type KeyedTable = WatchDumpTable | 'signals';
const keyedSources: { [Table in KeyedTable]: KeyedSource<Table> } = {
  ...watchDumpSources,
  // Sequences are per account: signals page by account, then sequence.
  signals: {
    table: 'signals',
    key: ['account_id', 'sequence'],
    columns: 'account_id, sequence, data',
    toRecord: (r) => toEvent({ sequence: r.sequence as number, data: r.data as string }),
  },
};
const isKeyed = (table: DumpTable): table is KeyedTable => Object.hasOwn(keyedSources, table);

/** Where each dumped table lives, and how one of its rows becomes the record the stores return. */
const sources: { [Table in Exclude<DumpTable, KeyedTable>]: Source<Table> } = {
  accounts: fromColumns('accounts', 'id, name, created_at'),
  workspaces: fromColumns('workspaces', workspaceColumns),
  users: fromColumns('users', userColumns),
  memberships: fromColumns('memberships', membershipColumns),
  tokens: fromColumns('tokens', tokenColumns),
  sessions: fromColumns('sessions', sessionColumns),
  ...(eachCollection((name) => fromData(tableOf[name])) as { [Name in CollectionName]: Source<Name> }),
  counters: fromColumns('counters', 'workspace_id, name, value'),
  idempotency: fromData('idempotency_keys'),
  webhooks: fromData('webhooks'),
  deliveries: fromData('deliveries'),
  deliveryAttempts: fromData('delivery_attempts'),
};

/**
 * Reads tables in insertion order (`pk`; the signals and the watching tables by their keys): a
 * copy inserted in this order lists ties (memberships, subscriptions, due deliveries) as the source
 * did. The cursor is the last row's key.
 */
export function postgresDump(conn: Conn): DumpStore {
  return {
    async page(table, after, limit) {
      // Every page of one snapshot (a read transaction's; a write one reads what committed).
      await conn.consistent();
      if (isKeyed(table)) {
        const source = keyedSources[table] as KeyedSource<typeof table>;
        const { sql, params, page } = keyedPage(source, after, limit, (i) => `$${i}`);
        const rows = await conn.rows<Row>(
          `/* all accounts: a whole-database copy reads every table */ ${sql}`,
          params,
        );
        return page(rows);
      }
      const source = sources[table as Exclude<typeof table, KeyedTable>] as Source<typeof table>;
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
