import { tokenSecret } from '../runtime.js';

/**
 * What an API token looks like. Clients treat it as opaque (`cn_…`); the server reads one thing
 * from it: the account whose workspace it was issued for, so that its lookup goes to that
 * account's rows only (a database distributed by account finds it on one node).
 *
 * - `cn_<route>_<secret>` (issued now): `<route>` spells the account id in [0-9A-Za-z]: an id
 *   `acct_<base62>` as its base62 part (when that does not begin with `x`), any other id as `x`
 *   followed by the hex of its UTF-8 bytes. `<secret>` is 40 base62 characters.
 * - `cn_<secret>` (issued before routes): no account; the storage finds it by its hash.
 *
 * The stored hash covers the whole token, route included: a token whose route was changed is
 * another token, and unknown.
 */

/** Either shape; the only shapes a token can have. */
export const tokenPattern = /^cn_(?:[0-9A-Za-z]+_)?[0-9A-Za-z]{32,}$/;

const accountPrefix = 'acct_';
const plainRoute = /^[0-9A-Za-wyz][0-9A-Za-z]*$/;
const hexRoute = /^x(?:[0-9a-f]{2})+$/;

/** The route that spells `accountId` in a token. */
export function routeOf(accountId: string): string {
  const body = accountId.startsWith(accountPrefix) ? accountId.slice(accountPrefix.length) : '';
  if (plainRoute.test(body)) return body;
  return `x${Buffer.from(accountId, 'utf8').toString('hex')}`;
}

/** A new token for a workspace of `accountId`. */
export const newTokenText = (accountId: string): string => `cn_${routeOf(accountId)}_${tokenSecret()}`;

/**
 * The account a token's route names, or null for a token without one (issued before routes) or
 * with a route that spells no id (such a token is unknown anyway: no token was issued with it).
 */
export function tokenAccount(token: string): string | null {
  const end = token.indexOf('_', 3);
  if (!token.startsWith('cn_') || end < 0) return null;
  const route = token.slice(3, end);
  if (hexRoute.test(route)) {
    const id = Buffer.from(route.slice(1), 'hex').toString('utf8');
    return Buffer.from(id, 'utf8').toString('hex') === route.slice(1) ? id : null;
  }
  return plainRoute.test(route) ? `${accountPrefix}${route}` : null;
}
