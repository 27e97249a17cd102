import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Admin-page passwords, stored as scrypt hashes: `scrypt$N$r$p$<salt b64>$<hash b64>`. The
 * parameters travel with the hash so they can be raised later without breaking old ones.
 */

/** scrypt's cost: N (CPU and memory, a power of two), r (block size) and p (parallelism). */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** OWASP's minimum for scrypt (N=2^17, r=8, p=1): about 128 MiB and a few hundred ms per hash. */
export const owaspScryptCost: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 32;

/** Passwords shorter than this are refused: the admin page guards every API token. */
export const minPasswordLength = 8;

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // scrypt needs 128·N·r bytes; maxmem (default 32 MiB) must leave room for it.
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 128 * N * r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes a password with a fresh random salt, at `cost` (OWASP's minimum unless said). */
export async function hashPassword(password: string, cost: ScryptCost = owaspScryptCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.N, cost.r, cost.p);
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether the password matches the stored hash, compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a hash was made at a lower cost than `cost` (today's): rehash it at the next sign-in. */
export function needsRehash(stored: string, cost: ScryptCost = owaspScryptCost): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < cost.N || Number(r) < cost.r || Number(p) < cost.p;
}
