import type { Role, User } from '../model.js';
import type { StorageTx } from '../port/index.js';
import { randomSecret } from '../random-secret.js';
import { isoTime } from '../runtime.js';
import { sha256Hex } from '../sha256.js';
import { addMember, type TenancyDeps } from './operations.js';

/** An invite link works for a week, once. */
export const inviteLifetimeMs = 7 * 24 * 60 * 60 * 1000;

/**
 * An invite is kept in the sessions store: like a session it is a random secret stored as its
 * hash, tied to a user, expiring, and purged with them; its `csrfToken` field holds this marker,
 * by which sessions refuse it (an invite link is no sign-in) and invites refuse sessions.
 */
export const inviteMarker = 'invite';

/** The page where the invited member sets a password. */
export const invitePath = (token: string): string => `/invite/${token}`;

export type InviteResult =
  | { ok: true; token: string; path: string; user: User; expiresAt: string }
  | { ok: false; reason: 'has_password' };

/**
 * Adds the email to the workspace with `role` unless a member already (making the user when there is none), and makes a
 * one-time link that lets them set a password. No email is sent: whoever invites passes the link
 * on. A user who already has a password is refused: they can sign in, and a link that set their
 * password would let any workspace's admin take over another's account.
 */
export async function createInvite(
  deps: TenancyDeps,
  input: { workspaceId: string; email: string; role: Role },
): Promise<InviteResult> {
  const found = await deps.tx.tenancy.getUserByEmail(input.email);
  if (found?.passwordHash) return { ok: false, reason: 'has_password' };
  // A member already (an earlier invite not used yet) keeps their role; anyone else is added.
  const member = found && (await deps.tx.tenancy.getMembership(input.workspaceId, found.id));
  const user = found && member ? found : (await addMember(deps, input)).user;
  const token = randomSecret();
  const expiresAt = isoTime(deps.now + inviteLifetimeMs);
  await deps.tx.sessions.insert({
    idHash: sha256Hex(token),
    userId: user.id,
    csrfToken: inviteMarker,
    createdAt: isoTime(deps.now),
    expiresAt,
  });
  return { ok: true, token, path: invitePath(token), user, expiresAt };
}

/** The user an invite link is for, while it is unused and unexpired; null otherwise. */
export async function openInvite(tx: StorageTx, token: string, nowMs: number): Promise<User | null> {
  const invite = await tx.sessions.get(sha256Hex(token));
  if (!invite || invite.csrfToken !== inviteMarker || Date.parse(invite.expiresAt) <= nowMs) return null;
  const user = await tx.tenancy.getUser(invite.userId);
  return user && !user.passwordHash ? user : null;
}

/**
 * Uses the invite: sets the user's password and deletes the invite, in the caller's transaction.
 * Of concurrent uses of one link only the one whose delete finds it sets the password.
 */
export async function acceptInvite(
  tx: StorageTx,
  token: string,
  passwordHash: string,
  nowMs: number,
): Promise<User | null> {
  const user = await openInvite(tx, token, nowMs);
  if (!user) return null;
  if (!(await tx.sessions.delete(sha256Hex(token)))) return null;
  const updated = { ...user, passwordHash };
  await tx.tenancy.updateUser(updated);
  return updated;
}
