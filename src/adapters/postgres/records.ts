import type { IdempotencyRecord } from '../../core/model.js';
import { type CounterStore, type IdempotencyStore, UniqueViolation } from '../../core/storage.js';
import type { Conn } from './connection.js';
import { purgeLockTaken } from './purge-lock.js';

/** Stored create responses, by (workspace, Idempotency-Key). */
export function postgresIdempotency(conn: Conn): IdempotencyStore {
  return {
    async get(workspaceId, key) {
      const data = await conn.value<string>(
        'SELECT data FROM idempotency_keys WHERE workspace_id = $1 AND key = $2',
        [workspaceId, key],
      );
      return data === undefined ? null : (JSON.parse(data) as IdempotencyRecord);
    },
    async put(record, replaceIfBefore) {
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

/** Named counters (issue numbers per project). */
export function postgresCounters(conn: Conn): CounterStore {
  return {
    async next(name) {
      const value = await conn.value<number>(
        'INSERT INTO counters (name, value) VALUES ($1, 1) ' +
          'ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value',
        [name],
      );
      if (value === undefined) throw new Error(`counter ${name} returned no value`);
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
