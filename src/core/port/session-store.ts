import type { AdminSession } from '../model.js';

export interface SessionStore {
  insert(session: AdminSession): Promise<void>;
  /** The session with this id hash, expired or not: callers judge expiry. */
  get(idHash: string): Promise<AdminSession | null>;
  delete(idHash: string): Promise<boolean>;
  /** Deletes sessions that expired before `before`; returns how many. */
  purge(before: string): Promise<number>;
  /**
   * Leaves one message (opaque text) for the session's next page, replacing any before it;
   * nothing happens when the session does not exist.
   */
  setFlash(idHash: string, flash: string): Promise<void>;
  /**
   * Returns the session's message and clears it. Concurrency contract: of concurrent takes of
   * one message exactly one receives it; the others get null (a reload never shows it twice).
   */
  takeFlash(idHash: string): Promise<string | null>;
}
