import type { IdempotencyRecord } from '../../../core/model.js';
import { type CounterStore, type IdempotencyStore, UniqueViolation } from '../../../core/port/index.js';
import { withFields } from '../../../core/with-fields.js';
import type { Conn, TransactionBound } from '../engine/types.js';

/**
 * A record as stored: its answer's body (JSON already) is embedded as the value `replay`, not as a
 * string, which JSON would escape and the next read unescape again. A body kept by its signal
 * stays the reference `body`.
 */
function storedRecord(record: IdempotencyRecord): string {
  if (typeof record.body !== 'string') return JSON.stringify(record);
  const { body, ...rest } = record;
  return `${JSON.stringify(rest).slice(0, -1)},"replay":${body}}`;
}

/** A record stored by storedRecord, or (written before it) with its body as a string. */
export function fromStoredRecord(data: string): IdempotencyRecord {
  const stored = JSON.parse(data) as Omit<IdempotencyRecord, 'body'> & {
    body?: IdempotencyRecord['body'];
    replay?: unknown;
  };
  if (stored.body !== undefined) return stored as IdempotencyRecord;
  const { replay, ...rest } = stored;
  return withFields(rest, { body: JSON.stringify(replay) });
}

const sqliteIdempotencyMethods: IdempotencyStore & ThisType<TransactionBound> = {
  async get(workspaceId, key) {
    const { conn } = this;
    const data = conn.value<string>('SELECT data FROM idempotency_keys WHERE workspace_id = ? AND key = ?', [
      workspaceId,
      key,
    ]);
    return data === undefined ? null : fromStoredRecord(data);
  },
  async put(record, replaceIfBefore) {
    const { conn } = this;
    // Inserts, or replaces an expired record; a live one makes the upsert change nothing.
    const changed = conn.run(
      'INSERT INTO idempotency_keys (workspace_id, key, created_at, data) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (workspace_id, key) DO UPDATE SET created_at = excluded.created_at, data = excluded.data ' +
        'WHERE idempotency_keys.created_at < ?',
      [record.workspaceId, record.key, record.createdAt, storedRecord(record), replaceIfBefore],
    );
    if (changed === 0) throw new UniqueViolation('idempotency.key');
  },
  async purge(before) {
    const { conn } = this;
    return conn.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before]);
  },
};

/** Stored create responses, by (workspace, Idempotency-Key). */
export function sqliteIdempotency(conn: Conn): IdempotencyStore {
  const m = sqliteIdempotencyMethods;
  const store = { conn, get: m.get, put: m.put, purge: m.purge };
  return store;
}

const sqliteCountersMethods: CounterStore & ThisType<TransactionBound> = {
  async next(workspaceId, name) {
    const { conn } = this;
    // Read once a write group, counted up in memory, written at its end (engine/deferred-bookkeeping.ts).
    return conn.defer((bookkeeping) => bookkeeping.nextCounter(workspaceId, name));
  },
  async set(workspaceId, name, value) {
    const { conn } = this;
    conn.run(
      'INSERT INTO counters (name, workspace_id, value) VALUES (?, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET workspace_id = excluded.workspace_id, value = excluded.value',
      [name, workspaceId, value],
    );
  },
};

/** Named counters (issue numbers per project). */
export function sqliteCounters(conn: Conn): CounterStore {
  const m = sqliteCountersMethods;
  const store = { conn, next: m.next, set: m.set };
  return store;
}
