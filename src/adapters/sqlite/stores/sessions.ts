import type { SessionStore } from '../../../core/port/index.js';
import { type SessionRow, toSession } from '../../shared/session-rows.js';
import type { Conn, TransactionBound } from '../engine/types.js';

const sqliteSessionsMethods: SessionStore & ThisType<TransactionBound> = {
  async insert(s) {
    const { conn } = this;
    // As the memory adapter: a session under an existing hash replaces it.
    conn.run(
      'INSERT OR REPLACE INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      [s.idHash, s.userId, s.csrfToken, s.createdAt, s.expiresAt],
    );
  },
  async get(idHash) {
    const { conn } = this;
    const r = conn.row<SessionRow>(
      'SELECT id_hash, user_id, csrf_token, created_at, expires_at FROM sessions WHERE id_hash = ?',
      [idHash],
    );
    return r === undefined ? null : toSession(r);
  },
  async delete(idHash) {
    const { conn } = this;
    return conn.run('DELETE FROM sessions WHERE id_hash = ?', [idHash]) > 0;
  },
  async purge(before) {
    const { conn } = this;
    return conn.run('DELETE FROM sessions WHERE expires_at < ?', [before]);
  },
  async setFlash(idHash, flash) {
    const { conn } = this;
    conn.run('UPDATE sessions SET flash = ? WHERE id_hash = ?', [flash, idHash]);
  },
  async takeFlash(idHash) {
    const { conn } = this;
    // Read and clear in the same (serialized) write transaction: no other one can take it too.
    const flash = conn.value<string | null>('SELECT flash FROM sessions WHERE id_hash = ?', [idHash]);
    if (flash === undefined || flash === null) return null;
    conn.run('UPDATE sessions SET flash = NULL WHERE id_hash = ?', [idHash]);
    return flash;
  },
};

/** Admin page sessions, by the hash of the cookie value. */
export function sqliteSessions(conn: Conn): SessionStore {
  const m = sqliteSessionsMethods;
  const store = {
    conn,
    insert: m.insert,
    get: m.get,
    delete: m.delete,
    purge: m.purge,
    setFlash: m.setFlash,
    takeFlash: m.takeFlash,
  };
  return store;
}
