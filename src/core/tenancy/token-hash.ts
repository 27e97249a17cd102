import * as crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string) => string;
/** `crypto.hash` (Node ≥ 20.12) digests in one call, about three times cheaper than a Hash object. */
const oneShot = (crypto as { hash?: OneShotHash }).hash;

/** Tokens are stored as their SHA-256 only: a leaked database reveals no usable token. */
export const hashToken: (token: string) => string = oneShot
  ? (token) => oneShot('sha256', token)
  : (token) => crypto.createHash('sha256').update(token).digest('hex');

/** `cn_` followed by base62: the only shape a token can have. */
export const tokenPattern = /^cn_[0-9A-Za-z]{32,}$/;
