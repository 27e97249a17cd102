import type { PoolClient } from 'pg';
import { type Prepared, prepared } from './prepared.js';

/**
 * Statements prepared per account, with the account written in, on a Citus cluster.
 *
 * Why: Citus routes a statement to the shard of its distribution column's value. A statement of
 * one table (the "fast path") with that value as a parameter keeps one plan and picks the shard
 * at each run. A join (the token's grant) or a statement with subqueries (the account's next
 * sequence with its webhooks) cannot: with the account a parameter, the coordinator plans it
 * anew at every run. With the account written in, the plan names its shard and is kept.
 * Measured on a 3-node cluster (pgbench, one client, CPU of all nodes per transaction): the
 * GET's grant statement 0.9 ms → 0.45 ms; a create's statements 4.6 ms → 3.9 ms.
 *
 * A kept plan holds memory on the server (about 130 kB for the grant's join), so a connection
 * keeps at most `maxBoundPerConnection` of them, the least recently used deallocated first.
 */

/** Statements kept per connection: at most about 4 MB of plans on the server's backend. */
export const maxBoundPerConnection = 32;

/** An account id as the tracker makes them (`acct_…`), the only value written into a statement. */
const accountShape = /^[A-Za-z0-9_]{1,64}$/;

/** Per connection, the bound statements it prepared, least recently used first. */
const boundOn = new WeakMap<PoolClient, Map<string, Prepared>>();

/** The bound text of each statement and account, made once. */
const textsMade = new Map<string, Prepared>();
const maxTextsMade = 4096;

/**
 * `text` with parameter `$at` written in as `value` (a quoted literal) and the parameters after
 * it numbered one lower. The statements bound are the adapter's own: no `$n` inside a quoted
 * string, which `prepared` checks once, where each is made.
 */
export function writtenIn(text: string, at: number, value: string): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n);
    if (index === at) return `'${value}'`;
    return index > at ? `$${index - 1}` : `$${index}`;
  });
}

/** A statement and its parameters as sent, and the name of one the connection no longer keeps. */
export interface Sent {
  sql: Prepared;
  params: readonly unknown[];
  evicted?: string;
}

/**
 * The statement bound to its account on `client`, or as it is when it names no account
 * parameter, or the value is not an account id. When that makes the connection keep one too
 * many, `evicted` names the least recently used: the caller deallocates it (`deallocate`) ahead.
 */
export function boundTo(client: PoolClient, statement: Prepared, params: readonly unknown[]): Sent {
  const at = statement.accountParam;
  if (at === undefined) return { sql: statement, params };
  const account = params[at - 1];
  if (typeof account !== 'string' || !accountShape.test(account)) return { sql: statement, params };
  const key = `${statement.name}\u0000${account}`;
  let bound = textsMade.get(key);
  if (bound === undefined) {
    bound = prepared(writtenIn(statement.text, at, account));
    if (textsMade.size >= maxTextsMade) textsMade.delete(textsMade.keys().next().value as string);
    textsMade.set(key, bound);
  }
  let kept = boundOn.get(client);
  if (kept === undefined) {
    kept = new Map();
    boundOn.set(client, kept);
  }
  // Most recently used last.
  let evicted: string | undefined;
  if (kept.has(bound.name)) kept.delete(bound.name);
  else if (kept.size >= maxBoundPerConnection) {
    evicted = kept.keys().next().value as string;
    kept.delete(evicted);
  }
  kept.set(bound.name, bound);
  const sent = { sql: bound, params: params.filter((_, i) => i !== at - 1) };
  return evicted === undefined ? sent : { ...sent, evicted };
}

/**
 * Deallocates `name` on `client` when the server prepared it (node-postgres saw it parsed: a
 * statement whose transaction failed before its parse left nothing to deallocate, and a
 * DEALLOCATE of an unknown name would fail the transaction). The DEALLOCATE is queued ahead of
 * what the caller sends next, and node-postgres forgets the name, so a later use prepares it again.
 */
export function deallocate(client: PoolClient, name: string): Promise<unknown> | undefined {
  const connection = (
    client as unknown as {
      connection?: {
        parsedStatements?: Record<string, string>;
        submittedNamedStatements?: Record<string, string>;
      };
    }
  ).connection;
  if (connection?.parsedStatements?.[name] === undefined) {
    if (connection?.submittedNamedStatements) delete connection.submittedNamedStatements[name];
    return undefined;
  }
  delete connection.parsedStatements[name];
  // The names are the adapter's own: ot_ and hexadecimal digits.
  return client.query(`DEALLOCATE ${name}`);
}
