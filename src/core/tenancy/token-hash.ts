import { sha256Hex } from '../sha256.js';

/** How many tokens' hashes are remembered; when full, the memory starts afresh. */
export const rememberedHashes = 1024;
/**
 * Only tokens up to this long are remembered: the server's are 43 characters (issued before
 * tokens carried their account) or 64 (`cn_<20>_<40>`), and a client may send one as long as a
 * header may be, which would make the memory's bound one of count only.
 */
const rememberedLength = 80;
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
    if (token.length > rememberedLength) return hash;
    if (remembered.size >= rememberedHashes) remembered.clear();
    // A copy: the token is most often a slice of its Authorization header, which V8 would keep
    // whole behind it (a header of spaces around a short token would cost the memory 16 KB).
    remembered.set(Buffer.from(token, 'latin1').toString('latin1'), hash);
  }
  return hash;
}

export { tokenPattern } from './token-format.js';
