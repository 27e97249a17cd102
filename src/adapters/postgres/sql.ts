import { SqlConditions } from '../shared/sql-conditions.js';

/** The placeholder of the parameter at `position` (counted from 1): `$3`. */
export const placeholder = (position: number): string => `$${position}`;

/** A WHERE clause under construction, with numbered parameters. */
export class Conditions extends SqlConditions {
  constructor() {
    super({ placeholder });
  }
}

/** `$1, $2, …, $n`. */
export const placeholders = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => placeholder(from + i)).join(', ');

/** A schema name as a quoted identifier. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A string as a quoted SQL literal (for DDL calls that take a name as text). */
export const quoteLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;
