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

/** The hex of a string's UTF-8 bytes (Web APIs only: the core runs beyond Node). */
function utf8Hex(text: string): string {
  let hex = '';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The string whose UTF-8 bytes `hex` spells, or null when they are not UTF-8. */
function fromUtf8Hex(hex: string): string | null {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The route that spells `accountId` in a token. */
export function routeOf(accountId: string): string {
  const body = accountId.startsWith(accountPrefix) ? accountId.slice(accountPrefix.length) : '';
  if (plainRoute.test(body)) return body;
  return `x${utf8Hex(accountId)}`;
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
    // Only the spelling routeOf writes: valid UTF-8, whose hex is this route again.
    const id = fromUtf8Hex(route.slice(1));
    return id !== null && utf8Hex(id) === route.slice(1) ? id : null;
  }
  return plainRoute.test(route) ? `${accountPrefix}${route}` : null;
}
