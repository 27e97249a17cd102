import type { FeedQuery, Watch, WatchStore } from '../../core/port/index.js';
import { toWatch, type WatchRow, watchColumns, watchValues } from '../shared/watch-rows.js';
import type { Conn, WithdrawWrite } from './connection.js';
import { purgeLockTaken } from './purge-lock.js';
import { toEvent } from './signals.js';

/**
 * The user's feed (migration 21): their watches, the events filed under each watched subject
 * since the watch began and not their own, and the signals those are, all of one account (one
 * node on a distributed database). The cost follows what the user watches, not the account's log.
 */
const feedFrom =
  'FROM watchers w JOIN watched_events e ON e.account_id = w.account_id AND e.workspace_id = w.workspace_id ' +
  'AND e.subject_id = w.subject_id AND e.occurred_at >= w.since ' +
  'JOIN signals s ON s.account_id = e.account_id AND s.sequence = e.sequence ' +
  'WHERE w.account_id = $1 AND w.workspace_id = $2 AND w.user_id = $3 ' +
  'AND (e.actor_user_id IS NULL OR e.actor_user_id <> $3) AND e.sequence > $4 AND e.sequence < $5';

const feedParams = (q: FeedQuery) => [
  q.accountId,
  q.workspaceId,
  q.userId,
  q.afterSequence ?? -1,
  q.beforeSequence ?? Number.MAX_SAFE_INTEGER,
];

const addSql = `INSERT INTO watchers (account_id, ${watchColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`;

const readMarkerSql =
  'SELECT read_up_to FROM notification_reads WHERE account_id = $1 AND workspace_id = $2 AND user_id = $3';

/** Watchers, the signals filed under what they watch, and the read markers (migration 21). */
export function postgresWatches(conn: Conn): WatchStore {
  // The watches `start` keeps for the commit, so that a removal later in the transaction (a batch
  // that comments and then unwatches, or assigns and then removes the member) takes them back
  // rather than leaving the commit to insert them after its DELETE.
  const starting: { accountId: string; watch: Watch; withdraw: WithdrawWrite }[] = [];
  const withdrawStarts = (accountId: string, matches: (watch: Watch) => boolean): number => {
    let withdrawn = 0;
    for (let at = starting.length - 1; at >= 0; at--) {
      const kept = starting[at];
      if (kept === undefined || kept.accountId !== accountId || !matches(kept.watch)) continue;
      kept.withdraw();
      starting.splice(at, 1);
      withdrawn++;
    }
    return withdrawn;
  };
  return {
    async add(accountId, w) {
      return (await conn.run(addSql, watchValues(accountId, w))) > 0;
    },
    async start(accountId, w) {
      // With the COMMIT, in its round trip: a create, a comment or an assignment costs no more trips.
      starting.push({ accountId, watch: w, withdraw: conn.atCommit(addSql, watchValues(accountId, w)) });
    },
    async get(accountId, workspaceId, subjectId, userId) {
      const row = await conn.row<WatchRow>(
        `SELECT ${watchColumns} FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND subject_id = $3 AND user_id = $4`,
        [accountId, workspaceId, subjectId, userId],
      );
      return row === undefined ? null : toWatch(row);
    },
    async remove(accountId, workspaceId, subjectId, userId) {
      const withdrawn = withdrawStarts(
        accountId,
        (w) => w.workspaceId === workspaceId && w.subjectId === subjectId && w.userId === userId,
      );
      const deleted = await conn.run(
        'DELETE FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND subject_id = $3 AND user_id = $4',
        [accountId, workspaceId, subjectId, userId],
      );
      return deleted > 0 || withdrawn > 0;
    },
    async list({ accountId, workspaceId, subjectId, after, limit }) {
      // The page and its total of one snapshot.
      await conn.consistent();
      const rows = await conn.rows<WatchRow>(
        `SELECT ${watchColumns} FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND subject_id = $3 ` +
          'AND (since, user_id) > ($4, $5) ORDER BY since, user_id LIMIT $6',
        [accountId, workspaceId, subjectId, after?.since ?? '', after?.userId ?? '', limit],
      );
      const total =
        (await conn.value<number>(
          'SELECT COUNT(*)::int FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND subject_id = $3',
          [accountId, workspaceId, subjectId],
        )) ?? 0;
      return { rows: rows.map(toWatch), total };
    },
    async removeUser(accountId, workspaceId, userId) {
      // A watch started in this transaction and not inserted yet counts as one ended.
      const withdrawn = withdrawStarts(
        accountId,
        (w) => w.workspaceId === workspaceId && w.userId === userId,
      );
      await conn.run(
        'DELETE FROM notification_reads WHERE account_id = $1 AND workspace_id = $2 AND user_id = $3',
        [accountId, workspaceId, userId],
      );
      const deleted = await conn.run(
        'DELETE FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND user_id = $3',
        [accountId, workspaceId, userId],
      );
      return deleted + withdrawn;
    },
    async removeSubject(accountId, workspaceId, subjectId) {
      const withdrawn = withdrawStarts(
        accountId,
        (w) => w.workspaceId === workspaceId && w.subjectId === subjectId,
      );
      const deleted = await conn.run(
        'DELETE FROM watchers WHERE account_id = $1 AND workspace_id = $2 AND subject_id = $3',
        [accountId, workspaceId, subjectId],
      );
      return deleted + withdrawn;
    },
    async file(e) {
      // With the COMMIT too: nothing in the transaction reads it.
      conn.atCommit(
        'INSERT INTO watched_events (account_id, workspace_id, subject_id, sequence, actor_user_id, occurred_at) ' +
          'VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
        [e.accountId, e.workspaceId, e.subjectId, e.sequence, e.actorUserId, e.occurredAt],
      );
    },
    async feed(query) {
      // A feed's page and its count (feedCount) of one snapshot, as a list's page and total.
      await conn.consistent();
      const rows = await conn.rows<{ sequence: number; data: string }>(
        `SELECT s.sequence, s.data ${feedFrom} ORDER BY e.sequence ${query.order === 'asc' ? 'ASC' : 'DESC'} LIMIT $6`,
        [...feedParams(query), query.limit],
      );
      return rows.map(toEvent);
    },
    async feedCount(query) {
      await conn.consistent();
      return (await conn.value<number>(`SELECT COUNT(*)::int ${feedFrom}`, feedParams(query))) ?? 0;
    },
    async readUpTo(accountId, workspaceId, userId) {
      return (await conn.value<number>(readMarkerSql, [accountId, workspaceId, userId])) ?? 0;
    },
    async markRead(accountId, workspaceId, userId, sequence) {
      // The row lock of the upsert queues concurrent marks; each keeps the higher of the two.
      const marker = await conn.value<number>(
        'INSERT INTO notification_reads (account_id, workspace_id, user_id, read_up_to) VALUES ($1, $2, $3, $4) ' +
          'ON CONFLICT (account_id, workspace_id, user_id) DO UPDATE SET ' +
          'read_up_to = GREATEST(notification_reads.read_up_to, excluded.read_up_to) RETURNING read_up_to',
        [accountId, workspaceId, userId, sequence],
      );
      return marker ?? sequence;
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'watched_events'))) return 0;
      return conn.run(
        '/* all accounts: the retention purge, a maintenance job */ DELETE FROM watched_events WHERE occurred_at < $1',
        [before],
      );
    },
  };
}
