import { type Prepared, prepared } from './prepared.js';

/**
 * Which account a workspace belongs to, for the life of a storage: every statement on a tenant
 * table names its account (`account_id = $n`, see distribution.ts), and most port methods know
 * only the workspace. A workspace never changes account, so what was read once stays true: the
 * cache is filled from `workspace_routes` (a reference table, read on any node without routing)
 * and from every row that carries both (a token's grant, a workspace read or inserted). A miss
 * costs one statement, the first time in the process. The accounts of tokens issued before
 * tokens carried their route (`token_routes`) are remembered alike.
 *
 * A workspace with no route (only the storage port's tests write rows of workspaces that were
 * never inserted) has its rows under the account '' (`unroutedAccount`), and is not cached: the
 * workspace may be inserted later.
 */
export const unroutedAccount = '';

/** How many workspaces are remembered; when full, the memory starts afresh (like the token hashes). */
const rememberedRoutes = 100_000;

const routeSql = prepared('SELECT account_id FROM workspace_routes WHERE workspace_id = $1');

/** What a storage remembers of its accounts, shared by all its transactions. */
export class AccountRoutes {
  readonly #accounts = new Map<string, string>();
  readonly #tokenAccounts = new Map<string, string>();
  readonly #tokenWorkspaces = new Map<string, string>();
  /** Lock rows (tenant_locks) seen: rows are never deleted (tenant-locks.ts). */
  readonly #lockRows = new Set<string>();

  /** The workspace's account, if known. */
  known(workspaceId: string): string | undefined {
    return this.#accounts.get(workspaceId);
  }

  remember(workspaceId: string, accountId: string): void {
    if (this.#accounts.size >= rememberedRoutes) this.#accounts.clear();
    this.#accounts.set(workspaceId, accountId);
  }

  /** The account of a token issued before routes (token_routes), if known: a hash never changes account. */
  tokenAccount(hash: string): string | undefined {
    return this.#tokenAccounts.get(hash);
  }

  rememberToken(hash: string, accountId: string): void {
    if (this.#tokenAccounts.size >= rememberedRoutes) this.#tokenAccounts.clear();
    this.#tokenAccounts.set(hash, accountId);
  }

  /** The workspace of the token whose hash this is, once a grant read it: a token never changes workspace. */
  tokenWorkspace(hash: string): string | undefined {
    return this.#tokenWorkspaces.get(hash);
  }

  rememberTokenWorkspace(hash: string, workspaceId: string): void {
    if (this.#tokenWorkspaces.size >= rememberedRoutes) this.#tokenWorkspaces.clear();
    this.#tokenWorkspaces.set(hash, workspaceId);
  }

  hasLockRow(accountId: string, name: string): boolean {
    return this.#lockRows.has(`${accountId}\u0000${name}`);
  }

  rememberLockRow(accountId: string, name: string): void {
    if (this.#lockRows.size >= rememberedRoutes) this.#lockRows.clear();
    this.#lockRows.add(`${accountId}\u0000${name}`);
  }
}

/** What reading a route takes of a transaction's Conn. */
export interface RouteReader {
  readonly routes: AccountRoutes;
  value<T>(sql: Prepared, params: readonly unknown[]): Promise<T | undefined>;
}

/** The account of a workspace that has a route, or undefined (no such workspace). */
export async function routedAccountOf(conn: RouteReader, workspaceId: string): Promise<string | undefined> {
  const known = conn.routes.known(workspaceId);
  if (known !== undefined) return known;
  const found = await conn.value<string>(routeSql, [workspaceId]);
  if (found !== undefined) conn.routes.remember(workspaceId, found);
  return found;
}

/** The account of the workspace: remembered, else read from its route ('' when it has none). */
export async function accountOf(conn: RouteReader, workspaceId: string): Promise<string> {
  return (await routedAccountOf(conn, workspaceId)) ?? unroutedAccount;
}
