import { createHash } from 'node:crypto';

/**
 * A statement of the hot path, prepared once per connection under a name of its own (the hash
 * of its text, so two texts never share a name): PostgreSQL parses and plans it once, not on
 * every request.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

export const prepared = (text: string): Prepared => ({
  name: `ot_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`,
  text,
});
