import { ApiError } from '../errors.js';
import type { Role, TokenScope } from '../model.js';
import type { StorageTx } from '../port/index.js';
import { tokenAccount } from '../tenancy/token-format.js';
import { hashToken, tokenPattern } from '../tenancy/token-hash.js';

/** Who a request acts as, resolved afresh from storage on every request. */
export interface Principal {
  accountId: string;
  workspaceId: string;
  userId: string;
  tokenId: string;
  role: Role;
  scope: TokenScope;
}

/** What a route needs: any token, a writer, or a workspace admin (reading or writing). */
export type Access = 'read' | 'write' | 'admin_read' | 'admin_write';

export const unauthorized = (detail: string): ApiError =>
  new ApiError(401, 'unauthorized', detail, {}, { 'WWW-Authenticate': 'Bearer realm="outcome-tracker"' });

const bearerPattern = /^Bearer[ ]+(\S+)\s*$/i;

/** The API token an Authorization header carries, or null when it carries none well-formed. */
export function bearerToken(authorization: string | undefined): string | null {
  const token = authorization ? bearerPattern.exec(authorization)?.[1] : undefined;
  return token !== undefined && tokenPattern.test(token) ? token : null;
}

/** How often lastUsedAt is refreshed: a write per request would make every GET a write. */
const touchEveryMs = 60_000;

/**
 * Resolves the bearer token to a principal, or explains why not. The membership is read on
 * every request, so a revoked token, a removed user or a demoted role takes effect at once.
 */
export async function authenticate(
  tx: StorageTx,
  authorization: string | undefined,
  now: number,
): Promise<Principal | ApiError> {
  const resolved = await resolveToken(tx, authorization, now);
  if (resolved instanceof ApiError) return resolved;
  const { principal, lastUsedAt } = resolved;
  if (lastUsedAt === null || now - Date.parse(lastUsedAt) >= touchEveryMs) {
    await tx.tokens.touch(principal.workspaceId, principal.tokenId, new Date(now).toISOString());
  }
  return principal;
}

/**
 * The principal a bearer token stands for now, read in `tx` and written nowhere (no lastUsedAt
 * touch): what a request authenticates with, and what an open stream re-checks (authority.ts).
 */
export async function resolveToken(
  tx: StorageTx,
  authorization: string | undefined,
  now: number,
): Promise<{ principal: Principal; lastUsedAt: string | null } | ApiError> {
  if (!authorization) return unauthorized('Send an API token as "Authorization: Bearer cn_…".');
  const match = bearerPattern.exec(authorization);
  if (!match?.[1]) return unauthorized('The Authorization header must be "Bearer <token>".');
  const token = match[1];
  if (!tokenPattern.test(token)) return unauthorized('That is not an outcome-tracker API token.');
  // Looked up in the account its route names only (or by its hash alone, a token issued before routes).
  const grant = await tx.tokens.grantOf(hashToken(token), tokenAccount(token));
  if (!grant) return unauthorized('Unknown API token.');
  const stored = grant.token;
  if (stored.revokedAt !== null) return unauthorized('This API token has been revoked.');
  if (stored.expiresAt !== null && Date.parse(stored.expiresAt) <= now) {
    return unauthorized(`This API token expired at ${stored.expiresAt}; issue a new one.`);
  }
  if (grant.role === null)
    return unauthorized("This API token's user is no longer a member of the workspace.");
  if (grant.accountId === null) return unauthorized('The workspace of this API token no longer exists.');
  return {
    principal: {
      accountId: grant.accountId,
      workspaceId: stored.workspaceId,
      userId: stored.userId,
      tokenId: stored.id,
      role: grant.role,
      scope: stored.scope,
    },
    lastUsedAt: stored.lastUsedAt,
  };
}

/** Effective permission = token scope ∩ user role (CONTRACT §2). */
export function authorize(principal: Principal, access: Access, method: string): ApiError | null {
  const writes = access === 'write' || (access === 'admin_write' && method !== 'GET');
  if (writes && principal.scope !== 'read_write') {
    return new ApiError(
      403,
      'insufficient_scope',
      'This token has the read scope; the request needs read_write.',
      {
        requiredScope: 'read_write',
      },
    );
  }
  if ((access === 'admin_read' || access === 'admin_write') && principal.role !== 'admin') {
    return new ApiError(403, 'forbidden', 'Only workspace admins may do this.', { requiredRole: 'admin' });
  }
  if (access === 'write' && principal.role === 'viewer') {
    return new ApiError(403, 'forbidden', 'Viewers may read but not change data.', {
      requiredRole: 'member',
    });
  }
  return null;
}
