import type { CollectionName, DumpPage, DumpRows, DumpStore, DumpTable } from '../../core/port/index.js';
import { eachCollection, tableOf } from '../shared/collection-table.js';
import { type CounterRow, toCounter } from '../shared/counter-rows.js';
import {
  type MembershipRow,
  type TokenRow,
  toMembership,
  toToken,
  toUser,
  toWorkspace,
  type UserRow,
  type WorkspaceRow,
} from '../shared/tenancy-rows.js';
import type { Conn } from './connection.js';
import { type SessionRow, sessionColumns, toSession } from './sessions.js';
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

/** Where each dumped table lives, and how one of its rows becomes the record the stores return. */
const sources: { [Table in DumpTable]: Source<Table> } = {
  accounts: {
    table: 'accounts',
    columns: 'id, name, created_at',
    key: 'pk',
    toRecord: (r) => ({ id: r.id as string, name: r.name as string, createdAt: r.created_at as string }),
  },
  workspaces: {
    table: 'workspaces',
    columns: workspaceColumns,
    key: 'pk',
    toRecord: (r) => toWorkspace(r as unknown as WorkspaceRow),
  },
  users: {
    table: 'users',
    columns: userColumns,
    key: 'pk',
    toRecord: (r) => toUser(r as unknown as UserRow),
  },
  memberships: {
    table: 'memberships',
    columns: membershipColumns,
    key: 'pk',
    toRecord: (r) => toMembership(r as unknown as MembershipRow),
  },
  tokens: {
    table: 'tokens',
    columns: tokenColumns,
    key: 'pk',
    toRecord: (r) => toToken(r as unknown as TokenRow),
  },
  sessions: {
    table: 'sessions',
    columns: sessionColumns,
    key: 'pk',
    toRecord: (r) => toSession(r as unknown as SessionRow),
  },
  ...(eachCollection((name) => fromData(tableOf[name])) as { [Name in CollectionName]: Source<Name> }),
  counters: {
    table: 'counters',
    columns: 'workspace_id, name, value',
    key: 'pk',
    toRecord: (r) => toCounter(r as unknown as CounterRow),
  },
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
      const source = sources[table] as Source<typeof table>;
      // Every page of one snapshot (a read transaction's; a write one reads what committed).
      await conn.consistent();
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
