import { randomBytes } from '../random-secret.js';

/**
 * A new signing secret: `whsec_` and the base64 of 33 random bytes (44 characters, no padding),
 * drawn again until it holds letters and digits only (about one draw in four). Such a secret is
 * the same text in base64 and base64url, so Standard Webhooks libraries (strict base64) decode
 * it and Stripe-style receivers use it as it is: one secret serves every signature scheme.
 * It keeps about 262 bits of randomness.
 */
export function newSigningSecret(): string {
  for (;;) {
    const encoded = Buffer.from(randomBytes(33)).toString('base64');
    if (/^[A-Za-z0-9]+$/.test(encoded)) return `whsec_${encoded}`;
  }
}
