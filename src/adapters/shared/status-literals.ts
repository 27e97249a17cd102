/**
 * `status IN ('a', 'b')` with the statuses as literals, in the order given: a partial index whose
 * predicate names the same list is then usable (SQLite matches the term as written; PostgreSQL
 * proves it for a prepared statement too, which a parameter would not let it). Statuses are the
 * model's own words; anything else is refused rather than quoted.
 */
export function statusInLiterals(statuses: readonly string[], prefix = ''): string {
  for (const status of statuses) {
    if (!/^[a-z_]+$/.test(status)) throw new Error(`not a status: ${JSON.stringify(status)}`);
  }
  return `${prefix}status IN (${statuses.map((status) => `'${status}'`).join(', ')})`;
}
