import type { IdempotencyRecord } from '../../core/model.js';
import { type CounterStore, type IdempotencyStore, UniqueViolation } from '../../core/port/index.js';
import { type Conn, prepared } from './connection.js';
import { numberTaken, predicateMemoKey } from './memo-keys.js';
import { purgeLockTaken } from './purge-lock.js';
import { drawAheadSql, keepDrawnAhead } from './signals.js';
import { type Granted, grantedKey } from './tenancy.js';

const getSql = prepared('SELECT data FROM idempotency_keys WHERE workspace_id = $1 AND key = $2');

/**
 * Claims a key: inserts a placeholder under it, or waits on the key's unique index while a
 * transaction that claimed it is open, and inserts nothing once that one committed its answer.
 */
const claimSql = prepared(
  'INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES ($1, $2, $3, $4) ' +
    'ON CONFLICT DO NOTHING RETURNING 1',
);

/** A claimed key's answer, written with the COMMIT. */
const answerSql =
  'UPDATE idempotency_keys SET created_at = $3, data = $4 WHERE workspace_id = $1 AND key = $2';

/** A claimed key no answer was stored under: given back with the COMMIT. */
const unclaimSql = 'DELETE FROM idempotency_keys WHERE workspace_id = $1 AND key = $2 AND created_at = $3';

/**
 * The placeholder of a claimed key. Dated '' (before any time): were it ever seen, it would read
 * as expired, and the next request with the key would replace it.
 */
const placeholder = (workspaceId: string, key: string): string =>
  JSON.stringify({ workspaceId, key, fingerprint: '', createdAt: '', status: 0, body: 'null', headers: {} });

/** Where a transaction's stores keep the keys it claimed: key → answered yet. */
const claimsOf = (conn: Conn): Map<string, boolean> => {
  let claims = conn.memo.get('idempotency.claims') as Map<string, boolean> | undefined;
  if (!claims) {
    claims = new Map();
    conn.memo.set('idempotency.claims', claims);
  }
  return claims;
};

/**
 * Stored create responses, by (workspace, Idempotency-Key). In a write transaction, `get`
 * claims the key before the request does any work (see the lock audit in transaction.ts): of
 * requests with one key, the first goes on, the others wait on the key's unique index until it
 * ends, and then read its answer (replay) or, when it stored none, claim the key in turn. The
 * answer under a claimed key is written with the COMMIT; a key claimed and left unanswered (a
 * request that failed without throwing) is given back there too.
 */
export function postgresIdempotency(conn: Conn): IdempotencyStore {
  const id = (workspaceId: string, key: string) => `${workspaceId}\u0000${key}`;
  return {
    async get(workspaceId, key) {
      if (conn.writing) {
        const claimed = await conn.value<number>(claimSql, [
          workspaceId,
          key,
          '',
          placeholder(workspaceId, key),
        ]);
        if (claimed !== undefined) {
          claimsOf(conn).set(id(workspaceId, key), false);
          // Runs at the commit after the answers: gives the key back when none was stored.
          conn.atCommit(unclaimSql, [workspaceId, key, ''], { last: true });
          return null;
        }
      }
      const data = await conn.value<string>(getSql, [workspaceId, key]);
      return data === undefined ? null : (JSON.parse(data) as IdempotencyRecord);
    },
    async put(record, replaceIfBefore) {
      const claims = claimsOf(conn);
      const claim = id(record.workspaceId, record.key);
      if (claims.get(claim) === false) {
        claims.set(claim, true);
        conn.atCommit(answerSql, [record.workspaceId, record.key, record.createdAt, JSON.stringify(record)]);
        return;
      }
      // Inserts, or replaces an expired record; a live one makes the upsert change nothing.
      const changed = await conn.run(
        'INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES ($1, $2, $3, $4) ' +
          'ON CONFLICT (workspace_id, key) DO UPDATE SET created_at = excluded.created_at, data = excluded.data ' +
          'WHERE idempotency_keys.created_at < $5',
        [record.workspaceId, record.key, record.createdAt, JSON.stringify(record), replaceIfBefore],
      );
      if (changed === 0) throw new UniqueViolation('idempotency.key');
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'idempotency_keys'))) return 0;
      return conn.run('DELETE FROM idempotency_keys WHERE created_at < $1', [before]);
    },
  };
}

const nextSql = prepared(
  'INSERT INTO counters (name, value) VALUES ($1, 1) ' +
    'ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value',
);

/**
 * An issue number, and with it what the create goes on to need: the predicate lock its insert
 * holds shared (collections.ts) and its signal's append drawn ahead (signals.ts), in the order
 * the create took them before (counter row, predicate, account). The create's writes then all
 * go with the COMMIT: the counter row's lock, which queues the creates of a project, spans this
 * statement and the commit, not a statement more between.
 */
const ahead = drawAheadSql('shared', '$3');
const nextIssueSql = prepared(
  `WITH n AS (${nextSql.text}), ` +
    'shared AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(1869574507, hashtext($2)) FROM n), ' +
    `${ahead.withs.join(', ')} SELECT (SELECT value FROM n) AS value, ${ahead.columns}`,
);

/** Named counters (issue numbers per project). */
export function postgresCounters(conn: Conn): CounterStore {
  return {
    async next(name) {
      const granted = conn.memo.get(grantedKey) as Granted | undefined;
      if (conn.writing && granted !== undefined && name.startsWith('issues:')) {
        const row = await conn.row<{
          value: number;
          sequence: number;
          hooks: string[];
          hook_types: string[];
        }>(nextIssueSql, [name, `issues:${granted.workspaceId}`, granted.accountId]);
        if (row?.value == null) throw new Error(`counter ${name} returned no value`);
        conn.memo.set(predicateMemoKey('issues', granted.workspaceId), 'shared');
        keepDrawnAhead(conn, granted.accountId, row);
        conn.memo.set(numberTaken, true);
        return row.value;
      }
      // The counter row's lock queues the transactions taking numbers from it, and only those.
      const value = await conn.value<number>(nextSql, [name]);
      if (value === undefined) throw new Error(`counter ${name} returned no value`);
      conn.memo.set(numberTaken, true);
      return value;
    },
    async set(name, value) {
      await conn.run(
        'INSERT INTO counters (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        [name, value],
      );
    },
  };
}
