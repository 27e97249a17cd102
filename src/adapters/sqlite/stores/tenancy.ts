import type { Account, Role, TokenScope } from '../../../core/model.js';
import {
  type TenancyStore,
  type TokenGrant,
  type TokenStore,
  VersionMismatch,
} from '../../../core/port/index.js';
import {
  type MembershipRow,
  maybe,
  type TokenRow,
  tokenGrantFrom,
  tokenValues,
  toMembership,
  toToken,
  toUser,
  toWorkspace,
  type UserRow,
  type WorkspaceRow,
} from '../../shared/tenancy-rows.js';
import type { Conn, TransactionBound } from '../engine/types.js';
import { withUniqueRules } from './unique-rules.js';

const userRules = { 'users.id': 'user.id', 'users.email_key': 'user.email' };

/**
 * The grant as one JSON array (GrantTuple's order): every request reads it, and better-sqlite3
 * hands over one string for about half of what nine columns cost it.
 */
const tokenGrantJsonSql =
  'SELECT json_array(t.id, t.workspace_id, t.user_id, t.scope, t.last_used_at, t.revoked_at, ' +
  `t.expires_at, m.role, w.account_id) ${tokenGrantFrom('?')}`;

/** The tables the grant is read from (tokenGrantFrom): a write to one drops a kept grant. */
const grantTables = ['tokens', 'memberships', 'workspaces'];

type GrantTuple = [
  id: string,
  workspaceId: string,
  userId: string,
  scope: TokenScope,
  lastUsedAt: string | null,
  revokedAt: string | null,
  expiresAt: string | null,
  role: Role | null,
  accountId: string | null,
];

function grantOfTuple(json: string): TokenGrant {
  const [id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt, role, accountId] = JSON.parse(
    json,
  ) as GrantTuple;
  return { token: { id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt }, role, accountId };
}

const sqliteTenancyMethods: TenancyStore & ThisType<TransactionBound> = {
  async insertAccount(account) {
    const { conn } = this;
    withUniqueRules({ 'accounts.id': 'account.id' }, () =>
      conn.run('INSERT INTO accounts (id, name, created_at) VALUES (?, ?, ?)', [
        account.id,
        account.name,
        account.createdAt,
      ]),
    );
  },
  async getAccount(id) {
    const { conn } = this;
    const row = conn.row<{ id: string; name: string; created_at: string }>(
      'SELECT id, name, created_at FROM accounts WHERE id = ?',
      [id],
    );
    return maybe(row, (r): Account => ({ id: r.id, name: r.name, createdAt: r.created_at }));
  },
  async insertWorkspace(w) {
    const { conn } = this;
    withUniqueRules({ 'workspaces.slug': 'workspace.slug', 'workspaces.id': 'workspace.id' }, () =>
      conn.run('INSERT INTO workspaces (id, account_id, slug, name, created_at) VALUES (?, ?, ?, ?, ?)', [
        w.id,
        w.accountId,
        w.slug,
        w.name,
        w.createdAt,
      ]),
    );
  },
  async getWorkspace(id) {
    const { conn } = this;
    return maybe(conn.row<WorkspaceRow>('SELECT * FROM workspaces WHERE id = ?', [id]), toWorkspace);
  },
  async getWorkspaceBySlug(slug) {
    const { conn } = this;
    return maybe(conn.row<WorkspaceRow>('SELECT * FROM workspaces WHERE slug = ?', [slug]), toWorkspace);
  },
  async listWorkspaces(accountId) {
    const { conn } = this;
    const rows =
      accountId === undefined
        ? conn.rows<WorkspaceRow>('SELECT * FROM workspaces ORDER BY created_at, id')
        : conn.rows<WorkspaceRow>('SELECT * FROM workspaces WHERE account_id = ? ORDER BY created_at, id', [
            accountId,
          ]);
    return rows.map(toWorkspace);
  },
  async insertUser(user) {
    const { conn } = this;
    withUniqueRules(userRules, () =>
      conn.run(
        'INSERT INTO users (id, email, email_key, password_hash, created_at, last_sign_in_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?)',
        [user.id, user.email, user.email.toLowerCase(), user.passwordHash, user.createdAt, user.lastSignInAt],
      ),
    );
  },
  async getUser(id) {
    const { conn } = this;
    return maybe(conn.row<UserRow>('SELECT * FROM users WHERE id = ?', [id]), toUser);
  },
  async getUserByEmail(email) {
    const { conn } = this;
    const row = conn.row<UserRow>('SELECT * FROM users WHERE email_key = ?', [email.toLowerCase()]);
    return maybe(row, toUser);
  },
  async updateUser(user) {
    const { conn } = this;
    withUniqueRules(userRules, () =>
      conn.run(
        'UPDATE users SET email = ?, email_key = ?, password_hash = ?, created_at = ?, last_sign_in_at = ? ' +
          'WHERE id = ?',
        [user.email, user.email.toLowerCase(), user.passwordHash, user.createdAt, user.lastSignInAt, user.id],
      ),
    );
  },
  async putMembership(m) {
    const { conn } = this;
    conn.run(
      'INSERT INTO memberships (workspace_id, user_id, role, created_at, updated_at, version) ' +
        'VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, ' +
        'created_at = excluded.created_at, updated_at = excluded.updated_at, version = excluded.version',
      [m.workspaceId, m.userId, m.role, m.createdAt, m.updatedAt, m.version],
    );
  },
  async getMembership(workspaceId, userId) {
    const { conn } = this;
    const row = conn.row<MembershipRow>('SELECT * FROM memberships WHERE workspace_id = ? AND user_id = ?', [
      workspaceId,
      userId,
    ]);
    return maybe(row, toMembership);
  },
  async updateMembership(m, expectedVersion) {
    const { conn } = this;
    const changed = conn.run(
      'UPDATE memberships SET role = ?, created_at = ?, updated_at = ?, version = ? ' +
        'WHERE workspace_id = ? AND user_id = ? AND version = ?',
      [m.role, m.createdAt, m.updatedAt, m.version, m.workspaceId, m.userId, expectedVersion],
    );
    if (changed === 0) {
      const current = conn.value<number>(
        'SELECT version FROM memberships WHERE workspace_id = ? AND user_id = ?',
        [m.workspaceId, m.userId],
      );
      throw new VersionMismatch(current ?? null);
    }
  },
  async listMembers(query) {
    const { conn } = this;
    const clauses = ['workspace_id = ?'];
    const params: unknown[] = [query.workspaceId];
    if (query.role !== undefined) {
      clauses.push('role = ?');
      params.push(query.role);
    }
    const condition = clauses.join(' AND ');
    const after = query.after;
    const rows = conn.rows<MembershipRow>(
      `SELECT * FROM memberships WHERE ${condition}${after ? ' AND (created_at, user_id) < (?, ?)' : ''} ` +
        'ORDER BY created_at DESC, user_id DESC LIMIT ?',
      after ? [...params, after.createdAt, after.id, query.limit] : [...params, query.limit],
    );
    const total = conn.value<number>(`SELECT COUNT(*) FROM memberships WHERE ${condition}`, params) ?? 0;
    return { rows: rows.map(toMembership), total };
  },
  async removeMembership(workspaceId, userId) {
    const { conn } = this;
    return (
      conn.run('DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?', [workspaceId, userId]) > 0
    );
  },
  async listMemberships(workspaceId) {
    const { conn } = this;
    return conn
      .rows<MembershipRow>('SELECT * FROM memberships WHERE workspace_id = ? ORDER BY rowid', [workspaceId])
      .map(toMembership);
  },
  async listUserMemberships(userId) {
    const { conn } = this;
    return conn
      .rows<MembershipRow>('SELECT * FROM memberships WHERE user_id = ? ORDER BY created_at, workspace_id', [
        userId,
      ])
      .map(toMembership);
  },
};

/** Accounts, workspaces, users and memberships. */
export function sqliteTenancy(conn: Conn): TenancyStore {
  const m = sqliteTenancyMethods;
  const store = {
    conn,
    insertAccount: m.insertAccount,
    getAccount: m.getAccount,
    insertWorkspace: m.insertWorkspace,
    getWorkspace: m.getWorkspace,
    getWorkspaceBySlug: m.getWorkspaceBySlug,
    listWorkspaces: m.listWorkspaces,
    insertUser: m.insertUser,
    getUser: m.getUser,
    getUserByEmail: m.getUserByEmail,
    updateUser: m.updateUser,
    putMembership: m.putMembership,
    getMembership: m.getMembership,
    updateMembership: m.updateMembership,
    listMembers: m.listMembers,
    removeMembership: m.removeMembership,
    listMemberships: m.listMemberships,
    listUserMemberships: m.listUserMemberships,
  };
  return store;
}

/** The token of this id; with a workspace, only when it is of that workspace. */
const tokenById = (conn: Conn, id: string, workspaceId?: string) =>
  maybe(
    workspaceId === undefined
      ? conn.row<TokenRow>('SELECT * FROM tokens WHERE id = ?', [id])
      : conn.row<TokenRow>('SELECT * FROM tokens WHERE id = ? AND workspace_id = ?', [id, workspaceId]),
    toToken,
  );

const sqliteTokensMethods: TokenStore & ThisType<TransactionBound> = {
  async insert(t) {
    const { conn } = this;
    withUniqueRules({ 'tokens.id': 'token', 'tokens.hash': 'token' }, () =>
      conn.run(
        'INSERT INTO tokens (id, workspace_id, user_id, name, scope, hash, last_four, created_at, ' +
          'last_used_at, revoked_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        tokenValues(t),
      ),
    );
  },
  async getByHash(hash, accountId) {
    const { conn } = this;
    // With an account: only a token of a workspace of that account.
    const row =
      accountId === null
        ? conn.row<TokenRow>('SELECT * FROM tokens WHERE hash = ?', [hash])
        : conn.row<TokenRow>(
            'SELECT t.* FROM tokens t JOIN workspaces w ON w.id = t.workspace_id WHERE t.hash = ? AND w.account_id = ?',
            [hash, accountId],
          );
    return maybe(row, toToken);
  },
  async grantOf(hash, accountId) {
    const { conn } = this;
    // Every request reads it: kept for the rest of the transaction (engine/read-cache.ts).
    const grant = maybe(conn.keptValue<string>(grantTables, tokenGrantJsonSql, [hash]), grantOfTuple);
    // With an account: a token of another account's workspace (or of none) is unknown here.
    return accountId === null || grant?.accountId === accountId ? grant : null;
  },
  async get(id, workspaceId) {
    return tokenById(this.conn, id, workspaceId);
  },
  async list(workspaceId) {
    const { conn } = this;
    return conn
      .rows<TokenRow>('SELECT * FROM tokens WHERE workspace_id = ? ORDER BY created_at DESC, id DESC', [
        workspaceId,
      ])
      .map(toToken);
  },
  async listForUser(workspaceId, userId) {
    const { conn } = this;
    return conn
      .rows<TokenRow>(
        'SELECT * FROM tokens WHERE workspace_id = ? AND user_id = ? ORDER BY created_at DESC, id DESC',
        [workspaceId, userId],
      )
      .map(toToken);
  },
  async revokeForUser(workspaceId, userId, at) {
    const { conn } = this;
    return conn.run(
      'UPDATE tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL',
      [at, workspaceId, userId],
    );
  },
  async revoke(id, at, workspaceId) {
    const { conn } = this;
    if (workspaceId === undefined)
      conn.run('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, id]);
    else
      conn.run('UPDATE tokens SET revoked_at = ? WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL', [
        at,
        id,
        workspaceId,
      ]);
    return tokenById(this.conn, id, workspaceId);
  },
  async touch(workspaceId, id, at) {
    const { conn } = this;
    conn.run('UPDATE tokens SET last_used_at = ? WHERE id = ? AND workspace_id = ?', [at, id, workspaceId]);
  },
};

/** API tokens, found by the hash of the plain token. */
export function sqliteTokens(conn: Conn): TokenStore {
  const m = sqliteTokensMethods;
  const store = {
    conn,
    insert: m.insert,
    getByHash: m.getByHash,
    grantOf: m.grantOf,
    get: m.get,
    list: m.list,
    listForUser: m.listForUser,
    revokeForUser: m.revokeForUser,
    revoke: m.revoke,
    touch: m.touch,
  };
  return store;
}
