import { sha256Hex } from '../sha256.js';

/** How many tokens' hashes are remembered; when full, the memory starts afresh. */
export const rememberedHashes = 1024;
const remembered = new Map<string, string>();

/**
 * Tokens are stored as their SHA-256 only: a leaked database reveals no usable token. The hash is
 * a pure function of the token, and every request hashes its token once or twice (its rate-limit
 * key, its authentication), about a twentieth of a GET: the hashes of recent tokens are
 * remembered. Only the hash is: whether the token is valid is read from storage every time.
 */
export function hashToken(token: string): string {
  let hash = remembered.get(token);
  if (hash === undefined) {
    hash = sha256Hex(token);
    if (remembered.size >= rememberedHashes) remembered.clear();
    remembered.set(token, hash);
  }
  return hash;
}

/** `cn_` followed by base62: the only shape a token can have. */
export const tokenPattern = /^cn_[0-9A-Za-z]{32,}$/;
