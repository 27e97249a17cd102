import type { FeedQuery, WatchStore } from '../../../core/port/index.js';
import { toWatch, type WatchRow, watchColumns, watchValues } from '../../shared/watch-rows.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { toEvent } from './signals.js';

/**
 * The user's feed (migration 22): their watches, the events filed under each watched subject
 * since the watch began and not their own, and the signals those are. The planner walks the
 * user's watches (watchers_by_user), each subject's events by key, and each signal by its
 * sequence: the cost follows what the user watches, not the account's whole log.
 */
const feedFrom =
  'FROM watchers w JOIN watched_events e ON e.account_id = w.account_id AND e.workspace_id = w.workspace_id ' +
  'AND e.subject_id = w.subject_id AND e.occurred_at >= w.since ' +
  'JOIN signals s ON s.sequence = e.sequence AND s.account_id = e.account_id ' +
  'WHERE w.account_id = ? AND w.workspace_id = ? AND w.user_id = ? ' +
  'AND (e.actor_user_id IS NULL OR e.actor_user_id <> ?) AND e.sequence > ? AND e.sequence < ?';

const feedParams = (q: FeedQuery) => [
  q.accountId,
  q.workspaceId,
  q.userId,
  q.userId,
  q.afterSequence ?? -1,
  q.beforeSequence ?? Number.MAX_SAFE_INTEGER,
];

const sqliteWatchesMethods: WatchStore & ThisType<TransactionBound> = {
  async add(accountId, w) {
    const { conn } = this;
    return (
      conn.run(
        `INSERT INTO watchers (account_id, ${watchColumns}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        watchValues(accountId, w),
      ) > 0
    );
  },
  async start(accountId, w) {
    const { conn } = this;
    conn.run(
      `INSERT INTO watchers (account_id, ${watchColumns}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      watchValues(accountId, w),
    );
  },
  async get(accountId, workspaceId, subjectId, userId) {
    const { conn } = this;
    const row = conn.row<WatchRow>(
      `SELECT ${watchColumns} FROM watchers WHERE account_id = ? AND workspace_id = ? AND subject_id = ? AND user_id = ?`,
      [accountId, workspaceId, subjectId, userId],
    );
    return row === undefined ? null : toWatch(row);
  },
  async remove(accountId, workspaceId, subjectId, userId) {
    const { conn } = this;
    return (
      conn.run(
        'DELETE FROM watchers WHERE account_id = ? AND workspace_id = ? AND subject_id = ? AND user_id = ?',
        [accountId, workspaceId, subjectId, userId],
      ) > 0
    );
  },
  async list({ accountId, workspaceId, subjectId, after, limit }) {
    const { conn } = this;
    const rows = conn.rows<WatchRow>(
      `SELECT ${watchColumns} FROM watchers WHERE account_id = ? AND workspace_id = ? AND subject_id = ? ` +
        'AND (since, user_id) > (?, ?) ORDER BY since, user_id LIMIT ?',
      [accountId, workspaceId, subjectId, after?.since ?? '', after?.userId ?? '', limit],
    );
    const total =
      conn.value<number>(
        'SELECT COUNT(*) FROM watchers WHERE account_id = ? AND workspace_id = ? AND subject_id = ?',
        [accountId, workspaceId, subjectId],
      ) ?? 0;
    return { rows: rows.map(toWatch), total };
  },
  async removeUser(accountId, workspaceId, userId) {
    const { conn } = this;
    conn.run('DELETE FROM notification_reads WHERE account_id = ? AND workspace_id = ? AND user_id = ?', [
      accountId,
      workspaceId,
      userId,
    ]);
    return conn.run('DELETE FROM watchers WHERE account_id = ? AND workspace_id = ? AND user_id = ?', [
      accountId,
      workspaceId,
      userId,
    ]);
  },
  async removeSubject(accountId, workspaceId, subjectId) {
    const { conn } = this;
    return conn.run('DELETE FROM watchers WHERE account_id = ? AND workspace_id = ? AND subject_id = ?', [
      accountId,
      workspaceId,
      subjectId,
    ]);
  },
  async file(e) {
    const { conn } = this;
    conn.run(
      'INSERT INTO watched_events (account_id, workspace_id, subject_id, sequence, actor_user_id, occurred_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [e.accountId, e.workspaceId, e.subjectId, e.sequence, e.actorUserId, e.occurredAt],
    );
  },
  async feed(query) {
    const { conn } = this;
    return conn
      .rows<{ sequence: number; data: string }>(
        `SELECT s.sequence, s.data ${feedFrom} ORDER BY e.sequence ${query.order === 'asc' ? 'ASC' : 'DESC'} LIMIT ?`,
        [...feedParams(query), query.limit],
      )
      .map(toEvent);
  },
  async feedCount(query) {
    const { conn } = this;
    return conn.value<number>(`SELECT COUNT(*) ${feedFrom}`, feedParams(query)) ?? 0;
  },
  async readUpTo(accountId, workspaceId, userId) {
    const { conn } = this;
    return (
      conn.value<number>(
        'SELECT read_up_to FROM notification_reads WHERE account_id = ? AND workspace_id = ? AND user_id = ?',
        [accountId, workspaceId, userId],
      ) ?? 0
    );
  },
  async markRead(accountId, workspaceId, userId, sequence) {
    const { conn } = this;
    conn.run(
      'INSERT INTO notification_reads (account_id, workspace_id, user_id, read_up_to) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (account_id, workspace_id, user_id) DO UPDATE SET read_up_to = max(read_up_to, excluded.read_up_to)',
      [accountId, workspaceId, userId, sequence],
    );
    return (
      conn.value<number>(
        'SELECT read_up_to FROM notification_reads WHERE account_id = ? AND workspace_id = ? AND user_id = ?',
        [accountId, workspaceId, userId],
      ) ?? sequence
    );
  },
  async purge(before) {
    const { conn } = this;
    return conn.run('DELETE FROM watched_events WHERE occurred_at < ?', [before]);
  },
};

/** Watchers, the signals filed under what they watch, and the read markers (migration 22). */
export function sqliteWatches(conn: Conn): WatchStore {
  const m = sqliteWatchesMethods;
  const store = {
    conn,
    add: m.add,
    start: m.start,
    get: m.get,
    remove: m.remove,
    list: m.list,
    removeUser: m.removeUser,
    removeSubject: m.removeSubject,
    file: m.file,
    feed: m.feed,
    feedCount: m.feedCount,
    readUpTo: m.readUpTo,
    markRead: m.markRead,
    purge: m.purge,
  };
  return store;
}
