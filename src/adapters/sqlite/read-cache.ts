import type { StatementEffect } from './statement-effects.js';

/** What `find` answers for a read it does not keep (a kept read may have found nothing). */
export const missing: unique symbol = Symbol('missing');

/**
 * The parameters as one string, each prefixed by its length so that no two lists give the same
 * key; parameters are strings and numbers.
 */
function keyOf(params: readonly unknown[]): string {
  if (params.length === 1) return String(params[0]);
  let key = '';
  for (const param of params) {
    const text = String(param);
    key += `${text.length}:${text}`;
  }
  return key;
}

/** More entries than a transaction needs: a full cache starts over rather than grow. */
const maxEntries = 256;

interface Kept {
  value: unknown;
  /** Every table the read reads. */
  tables: readonly string[];
}

/**
 * Results of the few reads every request makes (its token's grant, the account's active webhook
 * subscriptions, the project a new issue names), kept until the transaction ends. The members of
 * a write group share one transaction, so a token's second request in a group finds its grant
 * here: each such read costs a statement, about 1.5 µs.
 *
 * A result is kept only while nothing it read can have changed: a statement that inserts into a
 * table drops the results read from that table, any other write drops them all, and so do the
 * start of every transaction and every rollback (of a savepoint too). No other process changes
 * the file meanwhile: a write transaction holds the write lock, a read one its snapshot.
 */
export class ReadCache {
  /** By statement text (constant strings, whose hash V8 keeps), then by parameters. */
  private readonly entries = new Map<string, Map<string, Kept>>();
  private size = 0;

  /** The kept result of the read `sql` with `params`, or `missing`. */
  find(sql: string, params: readonly unknown[]): unknown {
    return this.entries.get(sql)?.get(keyOf(params))?.value ?? missing;
  }

  /** Keeps the result of the read `sql` with `params`; `tables`: every table it reads. */
  keep(tables: readonly string[], sql: string, params: readonly unknown[], value: unknown): void {
    if (this.size >= maxEntries) this.clear();
    let bySql = this.entries.get(sql);
    if (!bySql) {
      bySql = new Map();
      this.entries.set(sql, bySql);
    }
    bySql.set(keyOf(params), { value, tables });
    this.size++;
  }

  /** Told before each statement that may write, with what it may change. */
  writing(effect: StatementEffect): void {
    if (this.size === 0 || effect.kind === 'read') return;
    if (effect.kind === 'write') {
      this.clear();
      return;
    }
    for (const [sql, bySql] of this.entries) {
      // Every entry of one statement reads the same tables.
      const { tables } = bySql.values().next().value as Kept;
      if (tables.includes(effect.table)) {
        this.size -= bySql.size;
        this.entries.delete(sql);
      }
    }
  }

  clear(): void {
    if (this.size === 0) return;
    this.entries.clear();
    this.size = 0;
  }
}
