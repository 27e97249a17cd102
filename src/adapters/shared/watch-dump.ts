import type { KeyedSource } from './keyed-dump.js';
import { toWatch, type WatchRow } from './watch-rows.js';

/** The tables of watching (migration 21 on PostgreSQL, 22 on SQLite), which a copy moves too, by key. */
export type WatchDumpTable = 'watchers' | 'watchedEvents' | 'notificationReads';

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

/** The watching tables, paged by their primary key (keyed-dump.ts). */
export const isWatchDumpTable = (table: string): table is WatchDumpTable =>
  Object.hasOwn(watchDumpSources, table);
