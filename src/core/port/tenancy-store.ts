import type { Account, Membership, Role, User, Workspace } from '../model.js';
import type { ListResult } from './collection.js';

export interface TenancyStore {
  insertAccount(account: Account): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  /** Throws UniqueViolation('workspace.slug') when the slug is taken. */
  insertWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  getWorkspaceBySlug(slug: string): Promise<Workspace | null>;
  /**
   * The account's workspaces, oldest first; without an account, every workspace (for the
   * operator's CLI and a copy, not for API requests: it reads every account).
   */
  listWorkspaces(accountId?: string): Promise<Workspace[]>;
  /** Throws UniqueViolation('user.email') when the email is taken (emails compare case-insensitively). */
  insertUser(user: User): Promise<void>;
  getUser(id: string): Promise<User | null>;
  getUserByEmail(email: string): Promise<User | null>;
  updateUser(user: User): Promise<void>;
  /** Creates or replaces the user's membership of the workspace. */
  putMembership(membership: Membership): Promise<void>;
  getMembership(workspaceId: string, userId: string): Promise<Membership | null>;
  /**
   * Replaces the membership when its stored version equals `expectedVersion` (compare-and-set).
   * Concurrency contract: of concurrent updates expecting the same version, exactly one
   * succeeds; the others throw VersionMismatch carrying the current version (null if gone).
   */
  updateMembership(membership: Membership, expectedVersion: number): Promise<void>;
  removeMembership(workspaceId: string, userId: string): Promise<boolean>;
  listMemberships(workspaceId: string): Promise<Membership[]>;
  /** The user's memberships, of every workspace, in the order the user joined (then by workspace id). */
  listUserMemberships(userId: string): Promise<Membership[]>;
  /**
   * One keyset page of the workspace's memberships, newest first (createdAt desc, then userId
   * desc; `after.id` is a userId), optionally of one role, with the count of all matches.
   * The last-admin rule counts admins with it inside the same serializable transaction as
   * the change, so two admins demoting each other at once cannot leave the workspace without one.
   */
  listMembers(query: {
    workspaceId: string;
    role?: Role;
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<Membership>>;
}
