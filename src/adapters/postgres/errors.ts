import { UniqueViolation } from '../../core/port/index.js';

/** PostgreSQL's SQLSTATE of an error from the driver, if it has one. */
export const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

const messageOf = (error: unknown): string => {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '';
};

/**
 * A statement that lost a race with a change of a Citus cluster's shards (an account isolated to
 * a shard of its own, a shard moved to another node): it was planned on the shards as they were,
 * and the shard it names is gone from the metadata (`could not find valid entry for shard …`,
 * internal_error) or from the worker (`relation "issues_102345" does not exist`). PostgreSQL aborts
 * the transaction on it, so nothing of it was committed; run again, it is planned on the new shards.
 */
const lostToShardChange = (error: unknown): boolean => {
  const state = sqlState(error);
  const message = messageOf(error);
  if (state === 'XX000')
    return /could not find valid entry for shard|could not find (any )?(shard )?placement|shard \d+ does not exist/.test(
      message,
    );
  return state === '42P01' && /relation "[^"]*_\d+" does not exist/.test(message);
};

/**
 * Failures that say "this transaction lost a race, run it again": serialization failures
 * (40001), deadlocks (40P01) and, on Citus, a shard changed under a statement (lostToShardChange).
 * Nothing else is retried: a retry is only safe when the transaction had no effect.
 */
export const isRetryable = (error: unknown): boolean => {
  const state = sqlState(error);
  return state === '40001' || state === '40P01' || lostToShardChange(error);
};

/** Errors of Node's sockets that say the server could not be reached or went away. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * Failures that say "the database, or the node holding these rows, does not answer now", rather
 * than anything about the request: a connection refused, broken or timed out (the driver's own
 * errors, and SQLSTATE class 08: on Citus, `connection to the remote node … failed` when a worker
 * is down), a server shutting down or starting (57P01–57P03), too many connections (53300), a
 * Citus worker's connection lost mid-statement (XX000 `… server closed the connection …`).
 */
export const isUnavailable = (error: unknown): boolean => {
  const state = sqlState(error);
  if (state !== undefined && socketCodes.has(state)) return true;
  if (state?.startsWith('08')) return true;
  if (state === '57P01' || state === '57P02' || state === '57P03' || state === '53300') return true;
  const message = messageOf(error);
  if (state === 'XX000')
    return /connection to the remote node|server closed the connection|could not connect to|lost connection|connection not open/i.test(
      message,
    );
  if (state !== undefined) return false;
  // The driver's errors without a SQLSTATE: a client that lost its connection, a pool whose
  // connect timed out.
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
    message,
  );
};

/**
 * The unique constraint a 23505 names, as the table's (a key of `rules`) where it is one of them.
 * PostgreSQL sets the error's constraint field. On Citus the constraint is the shard's copy
 * (`projects_key_102008`: the table's constraint and the shard's id): a worker that ran the
 * statement itself (a process connected to the node holding the shard) sets the field to that
 * name, and a coordinator passes a worker's error on with its message only, which names it.
 */
export function uniqueConstraint(
  error: unknown,
  rules: Readonly<Record<string, string>>,
): string | undefined {
  const field = (error as { constraint?: unknown }).constraint;
  const named =
    typeof field === 'string'
      ? field
      : /unique constraint "(.+)"$/.exec(String((error as { message?: unknown }).message ?? ''))?.[1];
  if (named === undefined) return undefined;
  if (Object.hasOwn(rules, named)) return named;
  const table = named.replace(/_\d+$/, '');
  if (table !== named && Object.hasOwn(rules, table)) return table;
  // Not a rule's: a plain PostgreSQL's own name is still the constraint it broke.
  return typeof field === 'string' ? field : undefined;
}

/**
 * Runs a write and translates a uniqueness failure (23505) into the port's UniqueViolation,
 * by constraint name; other failures pass through unchanged. Inserts avoid this path (they use
 * ON CONFLICT DO NOTHING, which leaves the transaction usable); updates that may break a rule
 * take it, and the transaction is then over anyway.
 */
export async function withUniqueRules<T>(
  rules: Readonly<Record<string, string>>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const constraint = sqlState(error) === '23505' ? uniqueConstraint(error, rules) : undefined;
    if (constraint !== undefined) {
      const what = rules[constraint];
      if (what) throw new UniqueViolation(what);
    }
    throw error;
  }
}
