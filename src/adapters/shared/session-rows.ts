import type { AdminSession } from '../../core/model.js';

/** The sessions table's row as both SQL adapters read it (their stores and their dumps). */
export interface SessionRow {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

export const sessionColumns = 'id_hash, user_id, csrf_token, created_at, expires_at';

export const toSession = (r: SessionRow): AdminSession => ({
  idHash: r.id_hash,
  userId: r.user_id,
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});
