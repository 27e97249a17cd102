import { ApiError } from '../errors.js';
import type { StorageTx } from '../port/index.js';
import { type Access, authorize, type Principal, resolveToken } from './auth.js';

/**
 * How often, at the longest, a long-lived answer (an event stream, a resource subscription)
 * reads its authority again: revoking a token, its expiry, removing or demoting its member
 * ends such an answer within this (plus one read), on every process sharing the database.
 */
export const authorityRecheckMs = 500;

/** What a long-lived answer was granted when it opened: its token, and what the route needs. */
export interface Grant {
  authorization: string | undefined;
  access: Access;
  method: string;
  /** The principal the request authenticated as. */
  principal: Principal;
}

/**
 * Whether a grant still stands, read in `tx` (one indexed read of the token, its membership and
 * account; no write): null when it does, else the error a new request with the token would get
 * now (401 revoked, expired, removed; 403 demoted or narrowed). A token that now belongs to
 * another account or user than at the start (it cannot, but the check is free) is refused too.
 *
 * Check it in the same transaction as the data about to be sent, after reading that data: if the
 * grant still stands in that snapshot, everything read was committed before any revocation.
 */
export async function grantLost(tx: StorageTx, grant: Grant, nowMs: number): Promise<ApiError | null> {
  const resolved = await resolveToken(tx, grant.authorization, nowMs);
  if (resolved instanceof ApiError) return resolved;
  const { principal } = resolved;
  if (
    principal.accountId !== grant.principal.accountId ||
    principal.userId !== grant.principal.userId ||
    principal.tokenId !== grant.principal.tokenId
  ) {
    return new ApiError(401, 'unauthorized', 'This API token no longer stands for who opened the stream.');
  }
  return authorize(principal, grant.access, grant.method);
}

/** The final comment of a stream whose grant was lost: it says why, as a new request would be told. */
export const lostGrantComment = (error: ApiError): string =>
  `: closed: ${error.status} ${error.code}: ${error.detail.replaceAll(/[\r\n]+/g, ' ')}\n\n`;
