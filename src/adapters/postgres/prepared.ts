import { createHash } from 'node:crypto';

/**
 * A statement of the hot path, prepared once per connection under a name of its own (the hash
 * of its text, so two texts never share a name): PostgreSQL parses and plans it once, not on
 * every request.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
  /**
   * The parameter ($n) holding the account whose shard the statement reads, for a statement
   * Citus cannot keep one plan of while the account is a parameter (a join, a subquery): on a
   * distributed schema it is prepared per account with the account written in (account-bound.ts).
   */
  readonly accountParam?: number;
}

export function prepared(text: string, options: { accountParam?: number } = {}): Prepared {
  const name = `ot_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
  if (options.accountParam === undefined) return { name, text };
  // The account is written in by replacing each `$n` (account-bound.ts): none may be quoted.
  if (text.includes("'$")) throw new Error(`a statement bound to its account quotes a $n: ${text}`);
  return { name, text, accountParam: options.accountParam };
}
