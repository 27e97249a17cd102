import type { ApiToken, Membership, Role, User, Workspace } from '../../core/model.js';
import type { DumpRows, TokenGrant } from '../../core/port/index.js';

/** The tenancy tables' rows as both SQL adapters read them, and the records they become. */
export interface WorkspaceRow {
  id: string;
  account_id: string;
  slug: string;
  name: string;
  created_at: string;
}
export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}
export interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: Membership['role'];
  created_at: string;
  updated_at: string;
  version: number;
}
export interface TokenRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  scope: ApiToken['scope'];
  hash: string;
  last_four: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
}

export const toWorkspace = (r: WorkspaceRow): Workspace => ({
  id: r.id,
  accountId: r.account_id,
  slug: r.slug,
  name: r.name,
  createdAt: r.created_at,
});
export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  lastSignInAt: r.last_sign_in_at,
});
export const toMembership = (r: MembershipRow): Membership => ({
  workspaceId: r.workspace_id,
  userId: r.user_id,
  role: r.role,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  version: r.version,
});
export const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  name: r.name,
  scope: r.scope,
  hash: r.hash,
  lastFour: r.last_four,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  expiresAt: r.expires_at,
});
/**
 * A token's values in the order both adapters' inserts name its columns (id, workspace_id,
 * user_id, name, scope, hash, last_four, created_at, last_used_at, revoked_at, expires_at).
 */
export const tokenValues = (t: ApiToken): unknown[] => [
  t.id,
  t.workspaceId,
  t.userId,
  t.name,
  t.scope,
  t.hash,
  t.lastFour,
  t.createdAt,
  t.lastUsedAt,
  t.revokedAt,
  t.expiresAt,
];

/** How a dumped row of each tenancy table (read as the stores read it) becomes its record. */
export const tenancyRecords: {
  [Table in 'accounts' | 'workspaces' | 'users' | 'memberships' | 'tokens']: (
    row: Record<string, unknown>,
  ) => DumpRows[Table];
} = {
  accounts: (r) => ({ id: r.id as string, name: r.name as string, createdAt: r.created_at as string }),
  workspaces: (r) => toWorkspace(r as unknown as WorkspaceRow),
  users: (r) => toUser(r as unknown as UserRow),
  memberships: (r) => toMembership(r as unknown as MembershipRow),
  tokens: (r) => toToken(r as unknown as TokenRow),
};

/** `to(row)`, or null when there is no row. */
export const maybe = <R, T>(row: R | undefined, to: (row: R) => T): T | null =>
  row === undefined ? null : to(row);

/** A token's credentials with its user's role and its workspace's account (null when either is gone). */
export interface TokenGrantRow
  extends Pick<
    TokenRow,
    'id' | 'workspace_id' | 'user_id' | 'scope' | 'last_used_at' | 'revoked_at' | 'expires_at'
  > {
  grant_role: Role | null;
  grant_account_id: string | null;
}

/**
 * Where `TokenStore.grantOf` reads in the SQLite adapter (`param` is its placeholder for the
 * hash): the token, its membership and its workspace in one read of one snapshot. PostgreSQL
 * reads them in the token's account, joined on it (postgres/tenancy.ts).
 */
export const tokenGrantFrom = (param: string, joins = ''): string =>
  'FROM tokens t ' +
  'LEFT JOIN memberships m ON m.workspace_id = t.workspace_id AND m.user_id = t.user_id ' +
  `LEFT JOIN workspaces w ON w.id = t.workspace_id ${joins}WHERE t.hash = ${param}`;

export const toTokenGrant = (r: TokenGrantRow): TokenGrant => ({
  token: {
    id: r.id,
    workspaceId: r.workspace_id,
    userId: r.user_id,
    scope: r.scope,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    expiresAt: r.expires_at,
  },
  role: r.grant_role,
  accountId: r.grant_account_id,
});
