import type { DumpRows, DumpStore, DumpTable } from '../../../core/port/index.js';
import { eachCollection, tableOf } from '../../shared/collection-table.js';
import { type CounterRow, toCounter } from '../../shared/counter-rows.js';
import {
  type MembershipRow,
  type TokenRow,
  toMembership,
  toToken,
  toUser,
  toWorkspace,
  type UserRow,
  type WorkspaceRow,
} from '../../shared/tenancy-rows.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { fromStoredRecord } from './records.js';
import { type SessionRow, toSession } from './sessions.js';
import { toEvent } from './signals.js';

type Row = Record<string, unknown>;

/** Where each dumped table lives, and how one of its rows becomes the record the stores return. */
const sources: { [Table in DumpTable]: { table: string; toRecord: (row: Row) => DumpRows[Table] } } = {
  accounts: {
    table: 'accounts',
    toRecord: (r) => ({ id: r.id as string, name: r.name as string, createdAt: r.created_at as string }),
  },
  workspaces: { table: 'workspaces', toRecord: (r) => toWorkspace(r as unknown as WorkspaceRow) },
  users: { table: 'users', toRecord: (r) => toUser(r as unknown as UserRow) },
  memberships: { table: 'memberships', toRecord: (r) => toMembership(r as unknown as MembershipRow) },
  tokens: { table: 'tokens', toRecord: (r) => toToken(r as unknown as TokenRow) },
  sessions: { table: 'sessions', toRecord: (r) => toSession(r as unknown as SessionRow) },
  ...eachCollection((name) => ({ table: tableOf[name], toRecord: (r: Row) => JSON.parse(r.data as string) })),
  counters: { table: 'counters', toRecord: (r) => toCounter(r as unknown as CounterRow) },
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
    const { table: name, toRecord } = sources[table];
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
