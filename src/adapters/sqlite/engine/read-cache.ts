import type { StatementEffect } from './types.js';

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

/** The kept results of one statement: the tables it reads, and its results by parameters. */
interface Kept {
  tables: readonly string[];
  results: Map<string, unknown>;
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
  /** By statement text (constant strings, whose hash V8 keeps). */
  private readonly entries = new Map<string, Kept>();
  private size = 0;

  /** The kept result of the read `sql` with `params` (undefined when it found nothing), or `missing`. */
  find(sql: string, params: readonly unknown[]): unknown {
    const results = this.entries.get(sql)?.results;
    const key = keyOf(params);
    return results?.has(key) ? results.get(key) : missing;
  }

  /** Keeps the result of the read `sql` with `params`; `tables`: every table it reads. */
  keep(tables: readonly string[], sql: string, params: readonly unknown[], value: unknown): void {
    if (this.size >= maxEntries) this.clear();
    let kept = this.entries.get(sql);
    if (!kept) {
      kept = { tables, results: new Map() };
      this.entries.set(sql, kept);
    }
    kept.results.set(keyOf(params), value);
    this.size++;
  }

  /** Told before each statement that may write, with what it may change. */
  writing(effect: StatementEffect): void {
    if (this.size === 0 || effect.kind === 'read') return;
    if (effect.kind === 'write') {
      this.clear();
      return;
    }
    for (const [sql, kept] of this.entries) {
      if (!effect.tables.some((table) => kept.tables.includes(table))) continue;
      this.size -= kept.results.size;
      this.entries.delete(sql);
    }
  }

  clear(): void {
    if (this.size === 0) return;
    this.entries.clear();
    this.size = 0;
  }
}
