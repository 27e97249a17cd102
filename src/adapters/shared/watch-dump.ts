import type { DumpPage, DumpRows } from '../../core/port/index.js';
import { toWatch, type WatchRow } from './watch-rows.js';

type Row = Record<string, unknown>;

/** The tables of watching (migration 21 on PostgreSQL, 22 on SQLite), which a copy moves too. */
export type WatchDumpTable = 'watchers' | 'watchedEvents' | 'notificationReads';

/**
 * A table the dump pages through by its primary key: these tables have no insertion order to keep
 * (SQLite keeps them WITHOUT ROWID; on PostgreSQL they have no `pk`), and nothing lists their ties
 * in insertion order, so key order is as good a copy order as any.
 */
export interface KeyedSource<Table extends WatchDumpTable> {
  table: string;
  /** The primary key's columns, in its order: the page's order and its cursor. */
  key: readonly string[];
  toRecord: (row: Row) => DumpRows[Table];
}

export const watchDumpSources: { [Table in WatchDumpTable]: KeyedSource<Table> } = {
  watchers: {
    table: 'watchers',
    key: ['account_id', 'workspace_id', 'subject_id', 'user_id'],
    toRecord: (r) => ({ accountId: r.account_id as string, ...toWatch(r as unknown as WatchRow) }),
  },
  watchedEvents: {
    table: 'watched_events',
    key: ['account_id', 'workspace_id', 'subject_id', 'sequence'],
    toRecord: (r) => ({
      accountId: r.account_id as string,
      workspaceId: r.workspace_id as string,
      subjectId: r.subject_id as string,
      sequence: Number(r.sequence),
      actorUserId: (r.actor_user_id as string | null) ?? null,
      occurredAt: r.occurred_at as string,
    }),
  },
  notificationReads: {
    table: 'notification_reads',
    key: ['account_id', 'workspace_id', 'user_id'],
    toRecord: (r) => ({
      accountId: r.account_id as string,
      workspaceId: r.workspace_id as string,
      userId: r.user_id as string,
      readUpTo: Number(r.read_up_to),
    }),
  },
};

export const isWatchDumpTable = (table: string): table is WatchDumpTable => table in watchDumpSources;

/**
 * One page of a keyed table: the statement (placeholders from `placeholder(i)`, 1-based, in the
 * order they appear), its parameters, and how to read the page's rows and cursor. The cursor is the last row's key values
 * as JSON; a row-value comparison resumes after it on both SQL engines.
 */
export function keyedPage(
  table: WatchDumpTable,
  after: string | null,
  limit: number,
  placeholder: (index: number) => string,
): { sql: string; params: unknown[]; page: (rows: Row[]) => DumpPage<WatchDumpTable> } {
  const source: KeyedSource<WatchDumpTable> = watchDumpSources[table];
  const from = after === null ? [] : (JSON.parse(after) as unknown[]);
  const keyList = source.key.join(', ');
  const where =
    from.length === 0 ? '' : `WHERE (${keyList}) > (${from.map((_, i) => placeholder(i + 1)).join(', ')}) `;
  return {
    // Parameters in the order they appear: SQLite's `?` binds by position.
    sql: `SELECT * FROM ${source.table} ${where}ORDER BY ${keyList} LIMIT ${placeholder(from.length + 1)}`,
    params: [...from, limit],
    page: (rows) => {
      const last = rows.at(-1);
      return {
        rows: rows.map(source.toRecord),
        next: rows.length === limit && last ? JSON.stringify(source.key.map((column) => last[column])) : null,
      };
    },
  };
}
