import type { SqlDialect } from './sql-dialect.js';

/** A WHERE clause under construction: SQL fragments joined by AND, and their parameters. */
export class SqlConditions {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  constructor(private readonly dialect: Pick<SqlDialect, 'placeholder'>) {}

  /** Adds `value` to the parameters; returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return this.dialect.placeholder(this.params.length);
  }

  /** Adds a clause built from the placeholder of `value`. */
  add(clause: (placeholder: string) => string, value: unknown): this {
    this.clauses.push(clause(this.param(value)));
    return this;
  }

  /** The clauses joined by AND (TRUE when there are none). */
  get sql(): string {
    return this.clauses.length === 0 ? 'TRUE' : this.clauses.join(' AND ');
  }
}
