import type { SessionStore } from '../../core/port/index.js';
import { type SessionRow, sessionColumns, toSession } from '../shared/session-rows.js';
import type { Conn } from './connection.js';
import { purgeLockTaken } from './purge-lock.js';

/** Admin page sessions, by the hash of the cookie value. */
export function postgresSessions(conn: Conn): SessionStore {
  return {
    async insert(s) {
      // As the other adapters: a session under an existing hash replaces it.
      await conn.run(
        'INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) ' +
          'ON CONFLICT (id_hash) DO UPDATE SET user_id = excluded.user_id, csrf_token = excluded.csrf_token, ' +
          'created_at = excluded.created_at, expires_at = excluded.expires_at',
        [s.idHash, s.userId, s.csrfToken, s.createdAt, s.expiresAt],
      );
    },
    async get(idHash) {
      const r = await conn.row<SessionRow>(`SELECT ${sessionColumns} FROM sessions WHERE id_hash = $1`, [
        idHash,
      ]);
      return r === undefined ? null : toSession(r);
    },
    async delete(idHash) {
      return (await conn.run('DELETE FROM sessions WHERE id_hash = $1', [idHash])) > 0;
    },
    async purge(before) {
      if (!(await purgeLockTaken(conn, 'sessions'))) return 0;
      return conn.run('DELETE FROM sessions WHERE expires_at < $1', [before]);
    },
    async setFlash(idHash, flash) {
      await conn.run('UPDATE sessions SET flash = $1 WHERE id_hash = $2', [flash, idHash]);
    },
    async takeFlash(idHash) {
      // The row lock makes concurrent takes wait; the one that waited re-reads a cleared flash.
      const taken = await conn.value<string | null>(
        'WITH old AS (SELECT id_hash, flash FROM sessions WHERE id_hash = $1 AND flash IS NOT NULL FOR UPDATE) ' +
          'UPDATE sessions s SET flash = NULL FROM old WHERE s.id_hash = old.id_hash RETURNING old.flash',
        [idHash],
      );
      return taken ?? null;
    },
  };
}
