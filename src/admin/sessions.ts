import type { AdminSession, StorageTx, User } from '../core/extension-kit.js';
import { inviteMarker, isoTime, randomSecret, sha256Hex } from '../core/extension-kit.js';
import { clearCookie, setCookie } from './cookies.js';

/** The session cookie's name. */
export const sessionCookieName = 'ot_session';

/** Sessions last one working day; signing in again starts a new one. */
export const sessionLifetimeMs = 12 * 60 * 60 * 1000;

/** A live session and its user. */
export interface ActiveSession {
  session: AdminSession;
  user: User;
}

/** The session the request's cookie names, if it exists, has not expired and its user still exists. */
export async function currentSession(
  tx: StorageTx,
  cookies: Map<string, string>,
  nowMs: number,
): Promise<ActiveSession | null> {
  const value = cookies.get(sessionCookieName);
  if (!value) return null;
  const session = await tx.sessions.get(sha256Hex(value));
  if (!session || Date.parse(session.expiresAt) <= nowMs) return null;
  // An invite shares the store but signs nobody in: its link's secret set as the cookie is refused.
  if (session.csrfToken === inviteMarker) return null;
  const user = await tx.tenancy.getUser(session.userId);
  return user ? { session, user } : null;
}

/**
 * Starts a new session for the user (never reusing one the browser brought: no session
 * fixation) and returns the Set-Cookie value that carries it. Only the hash of the cookie
 * value is stored, so a copy of the database signs nobody in.
 */
export async function startSession(
  tx: StorageTx,
  userId: string,
  nowMs: number,
  secure: boolean,
): Promise<{ session: AdminSession; setCookie: string }> {
  const value = randomSecret();
  const session: AdminSession = {
    idHash: sha256Hex(value),
    userId,
    csrfToken: randomSecret(),
    createdAt: isoTime(nowMs),
    expiresAt: isoTime(nowMs + sessionLifetimeMs),
  };
  await tx.sessions.insert(session);
  return {
    session,
    setCookie: setCookie(sessionCookieName, value, { maxAgeSeconds: sessionLifetimeMs / 1000, secure }),
  };
}

/** Deletes the session and returns the Set-Cookie value that clears its cookie. */
export async function endSession(tx: StorageTx, session: AdminSession, secure: boolean): Promise<string> {
  await tx.sessions.delete(session.idHash);
  return clearCookie(sessionCookieName, secure);
}
