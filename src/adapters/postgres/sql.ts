/** A WHERE clause under construction: SQL fragments joined by AND, with numbered parameters. */
export class Conditions {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  /** Adds `value` to the parameters; returns its placeholder (`$3`). */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds a clause built from the placeholder of `value`. */
  add(clause: (placeholder: string) => string, value: unknown): this {
    this.clauses.push(clause(this.param(value)));
    return this;
  }

  get sql(): string {
    return this.clauses.length === 0 ? 'TRUE' : this.clauses.join(' AND ');
  }
}

/** `$1, $2, …, $n`. */
export const placeholders = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** A schema name as a quoted identifier. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
