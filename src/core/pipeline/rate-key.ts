import type { Storage } from '../port/index.js';
import { hashToken } from '../tenancy/token-hash.js';
import { authenticate, bearerToken } from './auth.js';

/** How many token hashes the key cache remembers; when full it starts afresh. */
const cacheLimit = 10_000;

/**
 * Finds the key a request's rate limit is counted under: its token's id when it carries a token
 * that was valid when first seen, else its client address. The limit is taken before the
 * request's transaction (a transaction may be re-run; a take must not count twice), so the
 * token is resolved here on its own only the first time its hash is seen: a token's id never
 * changes, so remembering it can make no revocation or role change late. Those are checked by
 * the authentication inside the request's transaction, on every request. Only hashes of tokens
 * that did authenticate are kept, so made-up tokens still count against their address.
 */
export function rateKeys(storage: Storage, now: () => number) {
  const tokenIds = new Map<string, string>();

  return async function rateKeyOf(authorization: string | undefined, clientAddress: string): Promise<string> {
    const token = bearerToken(authorization);
    if (token === null) return `addr:${clientAddress}`;
    const hash = hashToken(token);
    const known = tokenIds.get(hash);
    if (known !== undefined) return `token:${known}`;
    const principal = await storage.transaction((tx) => authenticate(tx, authorization, now()), {
      mode: 'read',
    });
    if ('tokenId' in principal) {
      if (tokenIds.size >= cacheLimit) tokenIds.clear();
      tokenIds.set(hash, principal.tokenId);
      return `token:${principal.tokenId}`;
    }
    return `addr:${clientAddress}`;
  };
}
