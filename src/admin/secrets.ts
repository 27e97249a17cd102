import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
}
