import type { Account } from '../../core/model.js';
import {
  type CollectionName,
  type RowRead,
  type TenancyStore,
  type TokenStore,
  UniqueViolation,
  VersionMismatch,
} from '../../core/port/index.js';
import {
  type MembershipRow,
  maybe,
  type TokenGrantRow,
  type TokenRow,
  tokenValues,
  toMembership,
  toToken,
  toTokenGrant,
  toUser,
  toWorkspace,
  type UserRow,
  type WorkspaceRow,
} from '../shared/tenancy-rows.js';
import { accountOf, routedAccountOf } from './account-routes.js';
import { shapes } from './collection-sql.js';
import { type Conn, type Prepared, prepared, type Statement } from './connection.js';
import { withUniqueRules } from './errors.js';
import { claimSql, keepClaim, placeholder } from './idempotency-claims.js';
import { type AheadRow, aheadRowKey } from './transaction-memo.js';

export const workspaceColumns = 'id, account_id, slug, name, created_at';
export const userColumns = 'id, email, password_hash, created_at, last_sign_in_at';
export const membershipColumns = 'workspace_id, user_id, role, created_at, updated_at, version';
export const tokenColumns =
  'id, workspace_id, user_id, name, scope, hash, last_four, created_at, last_used_at, revoked_at, expires_at';

/** A workspace in its account: $1 the account, $2 the workspace. */
const workspaceSql = prepared(`SELECT ${workspaceColumns} FROM workspaces WHERE account_id = $1 AND id = $2`);

/**
 * Inserts with ON CONFLICT DO NOTHING (the transaction stays usable), and when nothing was
 * inserted, names the rule that refused it: the first of `probes` whose query finds a row.
 */
async function insertUnique(
  conn: Conn,
  sql: string,
  params: readonly unknown[],
  probes: readonly { what: string; sql: string; params: readonly unknown[] }[],
): Promise<void> {
  if ((await conn.run(`${sql} ON CONFLICT DO NOTHING`, params)) === 1) return;
  for (const probe of probes) {
    if ((await conn.value(probe.sql, probe.params)) !== undefined) throw new UniqueViolation(probe.what);
  }
  throw new UniqueViolation(probes[0]?.what ?? 'unique');
}

/** Accounts, workspaces, users and memberships. */
export function postgresTenancy(conn: Conn): TenancyStore {
  return {
    async insertAccount(account) {
      await insertUnique(
        conn,
        'INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)',
        [account.id, account.name, account.createdAt],
        [{ what: 'account.id', sql: 'SELECT 1 FROM accounts WHERE id = $1', params: [account.id] }],
      );
    },
    async getAccount(id) {
      const row = await conn.row<{ id: string; name: string; created_at: string }>(
        'SELECT id, name, created_at FROM accounts WHERE id = $1',
        [id],
      );
      return maybe(row, (r): Account => ({ id: r.id, name: r.name, createdAt: r.created_at }));
    },
    async insertWorkspace(w) {
      // The route first: it holds the slug (and id) unique over every account.
      await insertUnique(
        conn,
        'INSERT INTO workspace_routes (workspace_id, account_id, slug) VALUES ($1, $2, $3)',
        [w.id, w.accountId, w.slug],
        [
          { what: 'workspace.slug', sql: 'SELECT 1 FROM workspace_routes WHERE slug = $1', params: [w.slug] },
          {
            what: 'workspace.id',
            sql: 'SELECT 1 FROM workspace_routes WHERE workspace_id = $1',
            params: [w.id],
          },
        ],
      );
      await insertUnique(
        conn,
        `INSERT INTO workspaces (${workspaceColumns}) VALUES ($1, $2, $3, $4, $5)`,
        [w.id, w.accountId, w.slug, w.name, w.createdAt],
        [{ what: 'workspace.id', sql: 'SELECT 1', params: [] }],
      );
      conn.routes.remember(w.id, w.accountId);
    },
    async getWorkspace(id) {
      const accountId = await routedAccountOf(conn, id);
      if (accountId === undefined) return null;
      const row = await conn.row<WorkspaceRow>(workspaceSql, [accountId, id]);
      return maybe(row, toWorkspace);
    },
    async getWorkspaceBySlug(slug) {
      const route = await conn.row<{ workspace_id: string; account_id: string }>(
        'SELECT workspace_id, account_id FROM workspace_routes WHERE slug = $1',
        [slug],
      );
      if (route === undefined) return null;
      conn.routes.remember(route.workspace_id, route.account_id);
      const row = await conn.row<WorkspaceRow>(workspaceSql, [route.account_id, route.workspace_id]);
      return maybe(row, toWorkspace);
    },
    async listWorkspaces(accountId) {
      const rows =
        accountId === undefined
          ? await conn.rows<WorkspaceRow>(
              `/* all accounts: the operator lists every workspace */ SELECT ${workspaceColumns} FROM workspaces ORDER BY created_at, id`,
            )
          : await conn.rows<WorkspaceRow>(
              `SELECT ${workspaceColumns} FROM workspaces WHERE account_id = $1 ORDER BY created_at, id`,
              [accountId],
            );
      return rows.map(toWorkspace);
    },
    async insertUser(user) {
      const key = user.email.toLowerCase();
      await insertUnique(
        conn,
        `INSERT INTO users (${userColumns}, email_key) VALUES ($1, $2, $3, $4, $5, $6)`,
        [user.id, user.email, user.passwordHash, user.createdAt, user.lastSignInAt, key],
        [
          { what: 'user.email', sql: 'SELECT 1 FROM users WHERE email_key = $1', params: [key] },
          { what: 'user.id', sql: 'SELECT 1 FROM users WHERE id = $1', params: [user.id] },
        ],
      );
    },
    async getUser(id) {
      return maybe(await conn.row<UserRow>(`SELECT ${userColumns} FROM users WHERE id = $1`, [id]), toUser);
    },
    async getUserByEmail(email) {
      const row = await conn.row<UserRow>(`SELECT ${userColumns} FROM users WHERE email_key = $1`, [
        email.toLowerCase(),
      ]);
      return maybe(row, toUser);
    },
    async updateUser(user) {
      await withUniqueRules({ users_email_key: 'user.email' }, () =>
        conn.run(
          'UPDATE users SET email = $1, email_key = $2, password_hash = $3, created_at = $4, last_sign_in_at = $5 ' +
            'WHERE id = $6',
          [
            user.email,
            user.email.toLowerCase(),
            user.passwordHash,
            user.createdAt,
            user.lastSignInAt,
            user.id,
          ],
        ),
      );
    },
    async putMembership(m) {
      await conn.run(
        `INSERT INTO memberships (${membershipColumns}, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7) ` +
          'ON CONFLICT (account_id, workspace_id, user_id) DO UPDATE SET role = excluded.role, created_at = excluded.created_at, ' +
          'updated_at = excluded.updated_at, version = excluded.version',
        [
          m.workspaceId,
          m.userId,
          m.role,
          m.createdAt,
          m.updatedAt,
          m.version,
          await accountOf(conn, m.workspaceId),
        ],
      );
    },
    async getMembership(workspaceId, userId) {
      // A write transaction reads a membership it refers to (an assignee) or is about to change:
      // FOR KEY SHARE keeps it from being removed meanwhile (see the lock audit).
      const row = await conn.row<MembershipRow>(
        `SELECT ${membershipColumns} FROM memberships WHERE account_id = $3 AND workspace_id = $1 AND user_id = $2` +
          (conn.writing ? ' FOR KEY SHARE' : ''),
        [workspaceId, userId, await accountOf(conn, workspaceId)],
      );
      return maybe(row, toMembership);
    },
    async updateMembership(m, expectedVersion) {
      const accountId = await accountOf(conn, m.workspaceId);
      const changed = await conn.run(
        'UPDATE memberships SET role = $1, created_at = $2, updated_at = $3, version = $4 ' +
          'WHERE account_id = $8 AND workspace_id = $5 AND user_id = $6 AND version = $7',
        [m.role, m.createdAt, m.updatedAt, m.version, m.workspaceId, m.userId, expectedVersion, accountId],
      );
      if (changed === 0) {
        const current = await conn.value<number>(
          'SELECT version FROM memberships WHERE account_id = $3 AND workspace_id = $1 AND user_id = $2',
          [m.workspaceId, m.userId, accountId],
        );
        throw new VersionMismatch(current ?? null);
      }
    },
    async listMembers(query) {
      const accountId = await accountOf(conn, query.workspaceId);
      if (conn.writing && query.role !== undefined) {
        // Counting the members of a role to change one (the last-admin rule): the workspace row,
        // locked first, queues such changes per workspace; the count, a statement begun after
        // the lock, sees every change committed before it.
        await conn.run('SELECT 1 FROM workspaces WHERE account_id = $1 AND id = $2 FOR UPDATE', [
          accountId,
          query.workspaceId,
        ]);
      }
      await conn.consistent();
      const clauses = ['account_id = $1', 'workspace_id = $2'];
      const params: unknown[] = [accountId, query.workspaceId];
      if (query.role !== undefined) {
        params.push(query.role);
        clauses.push(`role = $${params.length}`);
      }
      const condition = clauses.join(' AND ');
      const pageParams = [...params];
      let keyset = '';
      if (query.after) {
        pageParams.push(query.after.createdAt, query.after.id);
        keyset = ` AND (created_at, user_id) < ($${pageParams.length - 1}, $${pageParams.length})`;
      }
      pageParams.push(query.limit);
      const rows = await conn.rows<MembershipRow>(
        `SELECT ${membershipColumns} FROM memberships WHERE ${condition}${keyset} ` +
          `ORDER BY created_at DESC, user_id DESC LIMIT $${pageParams.length}`,
        pageParams,
      );
      const total = Number(
        (await conn.value<string | number>(`SELECT COUNT(*) FROM memberships WHERE ${condition}`, params)) ??
          0,
      );
      return { rows: rows.map(toMembership), total };
    },
    async removeMembership(workspaceId, userId) {
      const removed = await conn.run(
        'DELETE FROM memberships WHERE account_id = $3 AND workspace_id = $1 AND user_id = $2',
        [workspaceId, userId, await accountOf(conn, workspaceId)],
      );
      return removed > 0;
    },
    async listMemberships(workspaceId) {
      const rows = await conn.rows<MembershipRow>(
        `SELECT ${membershipColumns} FROM memberships WHERE account_id = $2 AND workspace_id = $1 ORDER BY pk`,
        [workspaceId, await accountOf(conn, workspaceId)],
      );
      return rows.map(toMembership);
    },
    async listUserMemberships(userId) {
      // A user may be a member in several accounts: the admin sign-in asks where.
      const rows = await conn.rows<MembershipRow>(
        `/* all accounts: the memberships of a user in every account, for the admin sign-in */ SELECT ${membershipColumns} ` +
          'FROM memberships WHERE user_id = $1 ORDER BY created_at, workspace_id',
        [userId],
      );
      return rows.map(toMembership);
    },
  };
}

/**
 * The grant (TokenGrantRow): the token, its membership and its workspace in one read of one
 * snapshot, all in the token's account ($2), joined on it; `also` adds a row read with it.
 */
const tokenGrantSql = (also: { columns: string; joins: string } | null = null): string =>
  'SELECT t.id, t.workspace_id, t.user_id, t.scope, t.last_used_at, t.revoked_at, t.expires_at, ' +
  `m.role AS grant_role, w.account_id AS grant_account_id${also ? `, ${also.columns}` : ''} ` +
  'FROM tokens t ' +
  'LEFT JOIN memberships m ON m.account_id = t.account_id AND m.workspace_id = t.workspace_id AND m.user_id = t.user_id ' +
  `LEFT JOIN workspaces w ON w.account_id = t.account_id AND w.id = t.workspace_id ${also ? `${also.joins} ` : ''}` +
  'WHERE t.account_id = $2 AND t.hash = $1';

const grantSql = prepared(tokenGrantSql(), { accountParam: 2 });

/**
 * A statement per collection, made (and prepared) the first time it is asked for; its account
 * is parameter `accountParam` (account-bound.ts).
 */
function perCollection(
  text: (name: CollectionName) => string,
  accountParam: number,
): (name: CollectionName) => Prepared {
  const made = new Map<CollectionName, Prepared>();
  return (name) => {
    let statement = made.get(name);
    if (!statement) {
      statement = prepared(text(name), { accountParam });
      made.set(name, statement);
    }
    return statement;
  };
}

/** The grant's statement with the row of a table its token's workspace holds under id $3 (AheadRow). */
const grantWithRowSql = perCollection(
  (name) =>
    tokenGrantSql({
      columns: 'r.data AS ahead_data, r.version AS ahead_version',
      joins:
        `LEFT JOIN ${shapes[name].table} r ON r.account_id = t.account_id AND r.id = $3 ` +
        'AND r.workspace_id = t.workspace_id',
    }),
  2,
);

/**
 * The grant and, read in its statement (one snapshot: a revoke committed before it is seen by
 * both), the row the transaction reads first, left in the memo for Collection.getJson.
 */
async function grantWithRow(conn: Conn, hash: string, accountId: string, ahead: RowRead) {
  conn.memo.readsFirst = undefined;
  type Row = TokenGrantRow & { ahead_data: string | null; ahead_version: number | null };
  const row = await conn.row<Row>(grantWithRowSql(ahead.collection), [hash, accountId, ahead.id]);
  if (row === undefined) return null;
  const found: AheadRow | null =
    row.ahead_data === null ? null : { data: row.ahead_data, version: Number(row.ahead_version) };
  conn.memo.aheadRows.set(aheadRowKey(shapes[ahead.collection].table, row.workspace_id, ahead.id), found);
  return row;
}

/**
 * The row of a table the workspace of the token whose hash is $2 holds under id $3, in account
 * $1, locked as a write transaction's `get` locks it (collections.ts).
 */
const lockedRowByTokenSql = perCollection(
  (name) =>
    `SELECT r.data, r.version FROM ${shapes[name].table} r WHERE r.account_id = $1 AND r.id = $3 ` +
    'AND r.workspace_id = (SELECT t.workspace_id FROM tokens t WHERE t.account_id = $1 AND t.hash = $2) ' +
    'FOR KEY SHARE OF r',
  1,
);

/**
 * On a distributed schema, the grant's statement with the row a write reads first, locked as
 * lockedRowByTokenSql locks it, in a subquery of its select list (`ahead_data`): one statement
 * where a pipelining connection sends two in one round trip, since on Citus each statement is a
 * round trip from the coordinator to the account's node. Not a join: a LEFT JOIN cannot lock its
 * nullable side, and Citus refuses a lateral subquery that locks.
 */
const grantWithLockedRowSql = perCollection(
  (name) =>
    tokenGrantSql({
      columns:
        `(SELECT r.data FROM ${shapes[name].table} r WHERE r.account_id = $2 AND r.id = $3 ` +
        'AND r.workspace_id = t.workspace_id FOR KEY SHARE OF r) AS ahead_data',
      joins: '',
    }),
  2,
);

/**
 * A write transaction's grant, sent in one round trip with the BEGIN and what the transaction
 * was told it does next: claiming its Idempotency-Key (left for IdempotencyStore.get) and
 * reading a row FOR KEY SHARE (left for Collection.get). The read goes by the token's hash, so it
 * reaches only the token's own workspace; the claim goes to the workspace an earlier grant of the
 * token read (a token never changes workspace), and waits for IdempotencyStore.get the first time
 * (an `INSERT … SELECT` from the token's row would draw the key's `pk` from its identity, a
 * volatile default, which Citus runs through the coordinator). Both are undone by the rollback of
 * a request the grant then refuses.
 */
async function grantWithWritesAhead(
  conn: Conn,
  hash: string,
  accountId: string,
  ahead: RowRead | undefined,
  key: string | undefined,
) {
  conn.memo.readsFirst = undefined;
  conn.memo.claimsKey = undefined;
  // On Citus the row is read and locked in the grant's own statement.
  const lockedWithGrant = ahead !== undefined && conn.distributed ? ahead : undefined;
  const statements: Statement[] = [
    lockedWithGrant
      ? {
          sql: grantWithLockedRowSql(lockedWithGrant.collection),
          params: [hash, accountId, lockedWithGrant.id],
        }
      : { sql: grantSql, params: [hash, accountId] },
  ];
  // Where each result is among the batch's (which statements go depends on the hints).
  const claimAt = statements.length;
  const claimIn = key === undefined ? undefined : conn.routes.tokenWorkspace(hash);
  if (key !== undefined && claimIn !== undefined)
    statements.push({ sql: claimSql, params: [claimIn, key, '', placeholder(claimIn, key), accountId] });
  const lockAt = statements.length;
  if (ahead !== undefined && lockedWithGrant === undefined)
    statements.push({ sql: lockedRowByTokenSql(ahead.collection), params: [accountId, hash, ahead.id] });
  const results = await conn.batch(statements);
  const row = results[0]?.rows[0] as TokenGrantRow | undefined;
  if (row === undefined) return undefined;
  const workspaceId = row.workspace_id;
  if (key !== undefined && claimIn !== undefined) {
    if (claimIn !== workspaceId) throw new Error('a token changed workspace');
    const claimed = (results[claimAt]?.rowCount ?? 0) > 0;
    if (claimed) keepClaim(conn, workspaceId, key, accountId);
    conn.memo.claimedAhead = { workspaceId, key, claimed };
  }
  if (ahead !== undefined) {
    const locked = results[lockAt]?.rows[0] as AheadRow | undefined;
    const found: AheadRow | null = lockedWithGrant
      ? aheadOfText((row as TokenGrantRow & { ahead_data: string | null }).ahead_data)
      : locked === undefined
        ? null
        : { data: locked.data, version: Number(locked.version) };
    conn.memo.aheadRows.set(aheadRowKey(shapes[ahead.collection].table, workspaceId, ahead.id), found);
  }
  return row;
}

/** A row read in the grant's statement as its stored text, its version read from the text. */
function aheadOfText(data: string | null): AheadRow | null {
  if (data === null) return null;
  return { data, version: Number((JSON.parse(data) as { version: unknown }).version) };
}

/** The account of a token issued before tokens carried their route: found by its hash alone. */
const tokenRouteSql = prepared('SELECT account_id FROM token_routes WHERE hash = $1');

/**
 * API tokens, found by the hash of the plain token in the account its route names (one
 * statement), or, for a token issued before routes, in the account `token_routes` names (one
 * statement more, the first time in the process).
 */
export function postgresTokens(conn: Conn): TokenStore {
  /** The account to look in: the route's, else the one recorded for the hash (undefined: none). */
  const accountFor = async (hash: string, accountId: string | null): Promise<string | undefined> => {
    if (accountId !== null) return accountId;
    const known = conn.routes.tokenAccount(hash);
    if (known !== undefined) return known;
    const found = await conn.value<string>(tokenRouteSql, [hash]);
    if (found !== undefined) conn.routes.rememberToken(hash, found);
    return found;
  };
  /** The token by id, in its workspace's account, or (an operator's look-up by id alone) in any. */
  const byId = async (id: string, workspaceId?: string) => {
    const row =
      workspaceId === undefined
        ? await conn.row<TokenRow>(
            `/* all accounts: an operator looks a token up by its id alone */ SELECT ${tokenColumns} FROM tokens WHERE id = $1`,
            [id],
          )
        : await conn.row<TokenRow>(
            `SELECT ${tokenColumns} FROM tokens WHERE account_id = $3 AND id = $1 AND workspace_id = $2`,
            [id, workspaceId, await accountOf(conn, workspaceId)],
          );
    return maybe(row, toToken);
  };
  return {
    async insert(t, options) {
      const accountId = await accountOf(conn, t.workspaceId);
      await insertUnique(
        conn,
        `INSERT INTO tokens (${tokenColumns}, account_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [...tokenValues(t), accountId],
        [{ what: 'token', sql: 'SELECT 1', params: [] }],
      );
      if (options?.routeByHash) {
        await conn.run('INSERT INTO token_routes (hash, account_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
          t.hash,
          accountId,
        ]);
      }
    },
    async getByHash(hash, accountId) {
      const account = await accountFor(hash, accountId);
      if (account === undefined) return null;
      return maybe(
        await conn.row<TokenRow>(`SELECT ${tokenColumns} FROM tokens WHERE account_id = $2 AND hash = $1`, [
          hash,
          account,
        ]),
        toToken,
      );
    },
    async grantOf(hash, accountId) {
      // One statement: the token, its membership and its workspace as of one moment, which sees
      // every revoke and role change committed before it.
      const account = await accountFor(hash, accountId);
      if (account === undefined) return null;
      const ahead = conn.memo.readsFirst;
      const key = conn.writing ? conn.memo.claimsKey : undefined;
      const row = conn.writing
        ? conn.pipelines && (ahead !== undefined || key !== undefined)
          ? await grantWithWritesAhead(conn, hash, account, ahead, key)
          : await conn.row<TokenGrantRow>(grantSql, [hash, account])
        : ahead
          ? await grantWithRow(conn, hash, account, ahead)
          : await conn.row<TokenGrantRow>(grantSql, [hash, account]);
      const grant = maybe(row ?? undefined, toTokenGrant);
      if (grant?.accountId != null) {
        conn.routes.remember(grant.token.workspaceId, grant.accountId);
        conn.routes.rememberTokenWorkspace(hash, grant.token.workspaceId);
        conn.memo.granted = { workspaceId: grant.token.workspaceId, accountId: grant.accountId };
      }
      return grant;
    },
    get: byId,
    async list(workspaceId) {
      const rows = await conn.rows<TokenRow>(
        `SELECT ${tokenColumns} FROM tokens WHERE account_id = $2 AND workspace_id = $1 ORDER BY created_at DESC, id DESC`,
        [workspaceId, await accountOf(conn, workspaceId)],
      );
      return rows.map(toToken);
    },
    async listForUser(workspaceId, userId) {
      const rows = await conn.rows<TokenRow>(
        `SELECT ${tokenColumns} FROM tokens WHERE account_id = $3 AND workspace_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC`,
        [workspaceId, userId, await accountOf(conn, workspaceId)],
      );
      return rows.map(toToken);
    },
    async revokeForUser(workspaceId, userId, at) {
      return conn.run(
        'UPDATE tokens SET revoked_at = $1 WHERE account_id = $4 AND workspace_id = $2 AND user_id = $3 AND revoked_at IS NULL',
        [at, workspaceId, userId, await accountOf(conn, workspaceId)],
      );
    },
    async revoke(id, at, workspaceId) {
      if (workspaceId === undefined) {
        await conn.run(
          '/* all accounts: an operator revokes a token by its id alone */ UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
          [at, id],
        );
      } else {
        await conn.run(
          'UPDATE tokens SET revoked_at = $1 WHERE account_id = $4 AND id = $2 AND workspace_id = $3 AND revoked_at IS NULL',
          [at, id, workspaceId, await accountOf(conn, workspaceId)],
        );
      }
      return byId(id, workspaceId);
    },
    async touch(workspaceId, id, at) {
      await conn.run('UPDATE tokens SET last_used_at = $1 WHERE account_id = $3 AND id = $2', [
        at,
        id,
        await accountOf(conn, workspaceId),
      ]);
    },
  };
}
