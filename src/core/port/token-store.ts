import type { ApiToken, Role } from '../model.js';

/**
 * What authentication reads of a token: no name, hash or display digits. Every request reads it,
 * and each column more is a string made for nothing.
 */
export type TokenCredentials = Pick<
  ApiToken,
  'id' | 'workspaceId' | 'userId' | 'scope' | 'lastUsedAt' | 'revokedAt' | 'expiresAt'
>;

/** The token's credentials from its hash, with what stands behind them now. */
export function credentialsOf(token: ApiToken): TokenCredentials {
  const { id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt } = token;
  return { id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt };
}

/** A token with what stands behind it now: who may use it, as of the reading transaction's snapshot. */
export interface TokenGrant {
  token: TokenCredentials;
  /** The token's user's role in the token's workspace; null once the user is no longer a member. */
  role: Role | null;
  /** The account of the token's workspace; null once the workspace is gone. */
  accountId: string | null;
}

export interface TokenStore {
  /**
   * `routeByHash`: the token may be one issued before tokens carried their account (a copy from
   * another database inserts such tokens): keep it findable by its hash alone (accountId null).
   */
  insert(token: ApiToken, options?: { routeByHash?: boolean }): Promise<void>;
  /**
   * The token whose hash this is, revoked or not. `accountId`: the account the token's route
   * names (tokenAccount): only a token of that account's workspaces is returned, never one of
   * another account. Null for a token without a route (issued before routes), found by its hash.
   */
  getByHash(hash: string, accountId: string | null): Promise<ApiToken | null>;
  /**
   * The token whose hash this is (revoked or not) with its user's membership role and its
   * workspace's account, or null for an unknown hash; `accountId` as for getByHash (a token of
   * another account is unknown). Every request authenticates with it, so adapters answer it in
   * one read; concurrency contract: the three parts are of one snapshot (the caller's
   * transaction), so a role change or removal committed before it is seen.
   */
  grantOf(hash: string, accountId: string | null): Promise<TokenGrant | null>;
  /** The token with this id; `workspaceId`, when known, finds it in its workspace only. */
  get(id: string, workspaceId?: string): Promise<ApiToken | null>;
  /** The workspace's tokens, newest first. */
  list(workspaceId: string): Promise<ApiToken[]>;
  /** One user's tokens in the workspace, newest first. */
  listForUser(workspaceId: string, userId: string): Promise<ApiToken[]>;
  /** Revokes the user's live tokens in the workspace (sets revokedAt); returns how many. */
  revokeForUser(workspaceId: string, userId: string, at: string): Promise<number>;
  /**
   * Sets revokedAt when not yet set; returns the token as stored afterwards, or null.
   * `workspaceId`, when known, finds it in its workspace only (an operator's revoke by id alone
   * looks in every account).
   */
  revoke(id: string, at: string, workspaceId?: string): Promise<ApiToken | null>;
  /** Sets lastUsedAt of the workspace's token. */
  touch(workspaceId: string, id: string, at: string): Promise<void>;
}
