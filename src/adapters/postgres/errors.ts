import { UniqueViolation } from '../../core/port/index.js';

/** PostgreSQL's SQLSTATE of an error from the driver, if it has one. */
export const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Failures that say "this transaction lost a race, run it again": serialization failures
 * (40001) and deadlocks (40P01). Nothing else is retried: a retry is only safe when the
 * transaction had no effect.
 */
export const isRetryable = (error: unknown): boolean => {
  const state = sqlState(error);
  return state === '40001' || state === '40P01';
};

/**
 * The unique constraint a 23505 names. PostgreSQL sets the error's constraint field; a Citus
 * coordinator passes on a worker's error with its message only, which names the shard's copy of
 * the constraint (`projects_key_102008`: the table's constraint and the shard's id).
 */
function uniqueConstraint(error: unknown, rules: Readonly<Record<string, string>>): string | undefined {
  const constraint = (error as { constraint?: unknown }).constraint;
  if (typeof constraint === 'string') return constraint;
  const named = /unique constraint "(.+)_\d+"$/.exec(
    String((error as { message?: unknown }).message ?? ''),
  )?.[1];
  return named !== undefined && named in rules ? named : undefined;
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
