import type { AdminSession } from '../../core/model.js';
import type { SessionStore } from '../../core/storage.js';
import type { Conn } from './connection.js';

export interface SessionRow {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export const toSession = (r: SessionRow): AdminSession => ({
  idHash: r.id_hash,
  userId: r.user_id,
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** Admin page sessions, by the hash of the cookie value. */
export function sqliteSessions(conn: Conn): SessionStore {
  return {
    async insert(s) {
      // As the memory adapter: a session under an existing hash replaces it.
      conn.run(
        'INSERT OR REPLACE INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
        [s.idHash, s.userId, s.csrfToken, s.createdAt, s.expiresAt],
      );
    },
    async get(idHash) {
      const r = conn.row<SessionRow>(
        'SELECT id_hash, user_id, csrf_token, created_at, expires_at FROM sessions WHERE id_hash = ?',
        [idHash],
      );
      return r === undefined ? null : toSession(r);
    },
    async delete(idHash) {
      return conn.run('DELETE FROM sessions WHERE id_hash = ?', [idHash]) > 0;
    },
    async purge(before) {
      return conn.run('DELETE FROM sessions WHERE expires_at < ?', [before]);
    },
    async setFlash(idHash, flash) {
      conn.run('UPDATE sessions SET flash = ? WHERE id_hash = ?', [flash, idHash]);
    },
    async takeFlash(idHash) {
      // Read and clear in the same (serialized) write transaction: no other one can take it too.
      const flash = conn.value<string | null>('SELECT flash FROM sessions WHERE id_hash = ?', [idHash]);
      if (flash === undefined || flash === null) return null;
      conn.run('UPDATE sessions SET flash = NULL WHERE id_hash = ?', [idHash]);
      return flash;
    },
  };
}
