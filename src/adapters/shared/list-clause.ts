/**
 * The SQL of a filter list on `column`: any of (`IN`, read over the column's own index, one probe
 * per value) or none of (`not`) the values whose placeholders are given, and of null with
 * `withNull`. Without null in an exclusion, a null field is none of the values: it stays.
 */
export function listClause(column: string, placeholders: readonly string[], withNull: boolean, not: boolean) {
  const inList = placeholders.length > 0 ? `${column} IN (${placeholders.join(', ')})` : null;
  if (!not) {
    const parts = [inList, withNull ? `${column} IS NULL` : null].filter((part) => part !== null);
    return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
  }
  if (inList === null) return withNull ? `${column} IS NOT NULL` : 'TRUE';
  return withNull ? `(${column} IS NOT NULL AND NOT ${inList})` : `(${column} IS NULL OR NOT ${inList})`;
}
