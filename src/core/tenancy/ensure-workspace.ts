import { ApiError } from '../errors.js';
import type { Storage, StorageTx } from '../port/index.js';
import { UniqueViolation } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { initWorkspace } from './operations.js';

/** What ensureWorkspace needs of a tracker (a Tracker has all three). */
export interface EnsureWorkspaceHost {
  storage: Storage;
  ids: Ids;
  clock: Clock;
}

export interface EnsureWorkspaceInput {
  slug: string;
  /** The admin made with the workspace on the first run (a user of that email is reused). */
  adminEmail: string;
  accountName?: string;
  passwordHash?: string | null;
}

export interface EnsuredWorkspace {
  /** Whether this call made the workspace; false when it was there (or another process made it first). */
  created: boolean;
  accountId: string;
  workspaceId: string;
  workspaceSlug: string;
  /** The admin's user id: the one made on the first run, else the user of `adminEmail` (null if none). */
  userId: string | null;
  /**
   * The admin's read_write token, on the run that made the workspace only: the storage keeps its
   * hash, so no later run can show it again (issue another with tenancy.issueToken).
   */
  token: string | null;
}

/**
 * Makes the workspace `slug`, its account, admin and a token on the first run, and answers the
 * existing workspace on every run after: safe to call at each start of an embedding app, and by
 * several processes at once on one PostgreSQL (one makes it, the others answer it).
 */
export async function ensureWorkspace(
  host: EnsureWorkspaceHost,
  input: EnsureWorkspaceInput,
): Promise<EnsuredWorkspace> {
  try {
    return await host.storage.transaction(async (tx) => {
      const found = await existing(tx, input);
      if (found) return found;
      const made = await initWorkspace({ tx, ids: host.ids, now: host.clock.now() }, input);
      return { created: true, ...made };
    });
  } catch (error) {
    // Another process made the slug between this one's read and its insert: the unique slug
    // refused this insert (or a retry found the workspace and initWorkspace said so). Only
    // then is the workspace there to answer; anything else is not this function's to hide.
    if (!lostTheRace(error)) throw error;
    const found = await host.storage.transaction((tx) => existing(tx, input));
    if (!found) throw error;
    return found;
  }
}

const lostTheRace = (error: unknown): boolean =>
  error instanceof UniqueViolation || (error instanceof ApiError && error.status === 409);

/** The workspace `slug` as ensureWorkspace answers it when it was already there, or null. */
async function existing(tx: StorageTx, input: EnsureWorkspaceInput): Promise<EnsuredWorkspace | null> {
  const workspace = await tx.tenancy.getWorkspaceBySlug(input.slug);
  if (!workspace) return null;
  const user = await tx.tenancy.getUserByEmail(input.adminEmail);
  return {
    created: false,
    accountId: workspace.accountId,
    workspaceId: workspace.id,
    workspaceSlug: workspace.slug,
    userId: user?.id ?? null,
    token: null,
  };
}
