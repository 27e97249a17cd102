import type { IdPrefix } from '../runtime.js';
import { sha256Hex } from '../sha256.js';
import { timeDigits } from '../time-ordered-ids.js';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The id a record imported from another tracker gets: the time it was created there, then twelve
 * base62 digits of a hash of (workspace, source, external id). The same record of the same source
 * always gets the same id in a workspace, so an import finds what an earlier one created by id,
 * with nothing stored besides; and ids still sort by creation time, as the API's own do.
 */
export function derivedId(
  prefix: IdPrefix,
  createdAt: string,
  workspaceId: string,
  source: string,
  externalId: string,
): string {
  const hash = sha256Hex(`${workspaceId}\u0000${source}\u0000${externalId}`);
  let digits = '';
  // 12 base62 digits from 12 pairs of hex digits (256 values each): about 71 bits, as random ids.
  for (let i = 0; i < 12; i++) digits += base62[Number.parseInt(hash.slice(i * 2, i * 2 + 2), 16) % 62];
  return `${prefix}_${timeDigits(Date.parse(createdAt))}${digits}`;
}
