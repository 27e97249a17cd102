import type { IdempotencyRecord } from '../../core/model.js';
import { type CounterStore, type IdempotencyStore, UniqueViolation } from '../../core/port/index.js';
import { accountOf } from './account-routes.js';
import { type Conn, prepared } from './connection.js';
import { claimId, claimSql, claimsOf, keepClaim, placeholder } from './idempotency-claims.js';
import { purgeLockTaken } from './purge-lock.js';
import { drawAhead, drawAheadSql, keepDrawnAhead } from './signals.js';
import { ensureLockRow, lockShared, sharedSql } from './tenant-locks.js';
import { predicateKey } from './transaction-memo.js';

const getSql = prepared(
  'SELECT data FROM idempotency_keys WHERE account_id = $3 AND workspace_id = $1 AND key = $2',
);

/** A claimed key's answer, written with the COMMIT. */
const answerSql =
  'UPDATE idempotency_keys SET created_at = $3, data = $4 WHERE account_id = $5 AND workspace_id = $1 AND key = $2';

/**
 * Stored create responses, by (workspace, Idempotency-Key). In a write transaction, `get`
 * claims the key before the request does any work (see the lock audit in transaction.ts): of
 * requests with one key, the first goes on, the others wait on the key's unique index until it
 * ends, and then read its answer (replay) or, when it stored none, claim the key in turn. The
 * answer under a claimed key is written with the COMMIT; a key claimed and left unanswered (a
 * request that failed without throwing) is given back there too.
 */
export function postgresIdempotency(conn: Conn): IdempotencyStore {
  return {
    async get(workspaceId, key) {
      const accountId = await accountOf(conn, workspaceId);
      // Claimed already, in the grant's round trip (tenancy.ts): what that claim found.
      const ahead = conn.memo.claimedAhead;
      const claimedAhead = ahead?.workspaceId === workspaceId && ahead.key === key ? ahead : undefined;
      if (claimedAhead !== undefined) {
        conn.memo.claimedAhead = undefined;
        if (claimedAhead.claimed) return null;
      } else if (conn.writing) {
        const claimed = await conn.value<number>(claimSql, [
          workspaceId,
          key,
          '',
          placeholder(workspaceId, key),
          accountId,
        ]);
        if (claimed !== undefined) {
          keepClaim(conn, workspaceId, key, accountId);
          return null;
        }
      }
      const data = await conn.value<string>(getSql, [workspaceId, key, accountId]);
      return data === undefined ? null : (JSON.parse(data) as IdempotencyRecord);
    },
    async put(record, replaceIfBefore) {
      const claims = claimsOf(conn);
      const claim = claimId(record.workspaceId, record.key);
      const accountId = await accountOf(conn, record.workspaceId);
      const claimed = claims.get(claim);
      if (claimed !== undefined && !claimed.answered) {
        claimed.answered = true;
        claimed.withdrawGiveBack();
        conn.atCommit(answerSql, [
          record.workspaceId,
          record.key,
          record.createdAt,
          JSON.stringify(record),
          accountId,
        ]);
        return;
      }
      // Inserts, or replaces an expired record; a live one makes the upsert change nothing.
      const changed = await conn.run(
        'INSERT INTO idempotency_keys (workspace_id, key, created_at, data, account_id) VALUES ($1, $2, $3, $4, $6) ' +
          'ON CONFLICT (account_id, workspace_id, key) DO UPDATE SET created_at = excluded.created_at, data = excluded.data ' +
          'WHERE idempotency_keys.created_at < $5',
        [
          record.workspaceId,
          record.key,
          record.createdAt,
          JSON.stringify(record),
          replaceIfBefore,
          accountId,
        ],
      );
      if (changed === 0) throw new UniqueViolation('idempotency.key');
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'idempotency_keys'))) return 0;
      return conn.run(
        '/* all accounts: the maintenance purge of expired keys */ DELETE FROM idempotency_keys WHERE created_at < $1',
        [before],
      );
    },
  };
}

/** The counter's next value: $1 its name, $2 its workspace, $3 the workspace's account. */
const nextSql = prepared(
  'INSERT INTO counters (name, workspace_id, account_id, value) VALUES ($1, $2, $3, 1) ' +
    'ON CONFLICT (account_id, name) DO UPDATE SET value = counters.value + 1 RETURNING value',
);

/**
 * An issue number, and with it what the create goes on to need: the predicate lock its insert
 * holds shared (collections.ts) and its signal's append drawn ahead (signals.ts), in the order
 * the create took them before (counter row, predicate, account), as three statements sent
 * together (one round trip on a pipelining pool). The create's writes then all go with the
 * COMMIT: the counter row's lock, which queues the creates of a project, spans these and the
 * commit, not a statement more between. Three statements rather than one of data-modifying CTEs:
 * Citus runs a CTE that inserts apart from the rest, through the coordinator (on a distributed
 * schema they are one statement that updates the counter: nextIssueSql).
 */
const nextIssueStatements = (name: string, workspaceId: string, accountId: string, lockName: string) => [
  { sql: nextSql, params: [name, workspaceId, accountId] },
  { sql: sharedSql, params: [accountId, lockName] },
  { sql: drawAheadSql, params: [accountId] },
];

/**
 * nextIssueStatements as one statement, for a distributed schema ($1 the account, $2 the
 * counter's name, $3 the predicate's): there each statement is a round trip from the coordinator
 * to the account's node, and Citus routes a statement whose CTEs update or lock rows of one
 * account whole (it refuses only a CTE that inserts). So the counter is an UPDATE here: its row
 * exists from a project's first issue on, and `value` is null before (the caller then takes the
 * number with nextSql). The select list reads the CTEs in the order of the three statements
 * (counter row, predicate, account), the order PostgreSQL runs them in.
 */
const nextIssueSql = prepared(
  'WITH n AS (UPDATE counters SET value = value + 1 WHERE account_id = $1 AND name = $2 RETURNING value), ' +
    'shared AS MATERIALIZED (SELECT 1 FROM tenant_locks WHERE account_id = $1 AND name = $3 FOR SHARE), ' +
    `${drawAhead.cte} SELECT (SELECT value FROM n) AS value, (SELECT count(*) FROM shared)::int AS locked, ` +
    drawAhead.columns,
  { accountParam: 1 },
);

type NextIssueRow = {
  value: number | null;
  locked: number;
  sequence: number;
  hooks: string[];
  hook_types: string[];
};

/** nextIssueStatements' answers, in one row as nextIssueSql gives them (value undefined when missing). */
async function nextIssueRow(
  conn: Conn,
  name: string,
  workspaceId: string,
  accountId: string,
  lockName: string,
): Promise<NextIssueRow | undefined> {
  if (conn.distributed) {
    const row = await conn.row<NextIssueRow>(nextIssueSql, [accountId, name, lockName]);
    // The project's first issue: no counter row yet, so none updated. The account's row and the
    // predicate are locked already; the counter row's insert queues the project's other creates.
    if (row && row.value === null)
      row.value = (await conn.value<number>(nextSql, [name, workspaceId, accountId])) ?? null;
    return row;
  }
  const [counted, locked, drawn] = await conn.batch(
    nextIssueStatements(name, workspaceId, accountId, lockName),
  );
  const value = counted?.rows[0]?.value as number | undefined;
  const ahead = drawn?.rows[0] as Omit<NextIssueRow, 'value' | 'locked'> | undefined;
  return value === undefined || ahead === undefined
    ? undefined
    : { ...ahead, value, locked: locked?.rowCount ?? 0 };
}

/** Named counters (issue numbers per project). */
export function postgresCounters(conn: Conn): CounterStore {
  return {
    async next(workspaceId, name) {
      const granted = conn.memo.granted;
      if (
        conn.writing &&
        granted !== undefined &&
        granted.workspaceId === workspaceId &&
        name.startsWith('issues:')
      ) {
        const { accountId } = granted;
        const lockName = `issues:${workspaceId}`;
        // The statement locks the predicate's row: it must exist by then (a statement the first time only).
        await ensureLockRow(conn, accountId, lockName, (sql, params) => conn.run(sql, params));
        const row = await nextIssueRow(conn, name, workspaceId, accountId, lockName);
        if (row?.value == null) throw new Error(`counter ${name} returned no value`);
        // A lock row seen by this storage but gone since (made by a transaction rolled back): locked
        // now, still before the insert, which goes with the COMMIT.
        if (row.locked === 0) await lockShared(conn, accountId, lockName);
        conn.memo.predicateLocks.set(predicateKey('issues', workspaceId), 'shared');
        keepDrawnAhead(conn, accountId, row);
        conn.memo.numberTaken = true;
        return row.value;
      }
      // The counter row's lock queues the transactions taking numbers from it, and only those.
      const value = await conn.value<number>(nextSql, [
        name,
        workspaceId,
        await accountOf(conn, workspaceId),
      ]);
      if (value === undefined) throw new Error(`counter ${name} returned no value`);
      conn.memo.numberTaken = true;
      return value;
    },
    async set(workspaceId, name, value) {
      await conn.run(
        'INSERT INTO counters (name, workspace_id, account_id, value) VALUES ($1, $2, $3, $4) ' +
          'ON CONFLICT (account_id, name) DO UPDATE SET workspace_id = excluded.workspace_id, value = excluded.value',
        [name, workspaceId, await accountOf(conn, workspaceId), value],
      );
    },
  };
}
