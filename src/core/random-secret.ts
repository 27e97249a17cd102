/**
 * Fresh random bytes from Web Crypto (`globalThis.crypto`, in Node 20 and every fetch runtime),
 * so the core draws its secrets without a Node module.
 */
export const randomBytes = (length: number): Uint8Array =>
  globalThis.crypto.getRandomValues(new Uint8Array(length));

/** A fresh unguessable value (256 bits, base64url): a session cookie, a CSRF token, an invite link. */
export const randomSecret = (): string => Buffer.from(randomBytes(32)).toString('base64url');
