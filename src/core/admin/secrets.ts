import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh unguessable value (256 bits, base64url) for a session cookie or a CSRF token. */
export const randomSecret = (): string => randomBytes(32).toString('base64url');

/** Lowercase hex SHA-256: sessions are stored under the hash of their cookie value. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
