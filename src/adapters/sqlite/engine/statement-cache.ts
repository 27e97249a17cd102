import type Database from 'better-sqlite3';
import type { Db, StatementEffect } from './types.js';

/** How many prepared statements a connection keeps: far more than the adapter's fixed queries. */
export const statementCacheSize = 500;

/**
 * A prepared statement, what it may change (statement-effects.ts), and whether it may run while
 * bookkeeping waits (deferred-bookkeeping.ts).
 */
export interface Prepared {
  statement: Database.Statement;
  effect: StatementEffect;
  commutes: boolean;
}

/** Without a judge: any statement may change anything, and none runs while bookkeeping waits. */
const unknownEffect: Omit<Prepared, 'statement'> = { effect: { kind: 'write' }, commutes: false };

/** A cached statement, and whether it was used since the sweep for a victim last passed it. */
interface CachedStatement extends Prepared {
  used: boolean;
}

/**
 * Prepared statements cached per connection, keyed by their SQL text: every query shape is
 * compiled once however many requests use it, and query shapes a client can vary (filter
 * combinations) cannot grow the cache without bound. Callers keep the number of shapes small
 * too: lists of values are bound as one JSON array.
 *
 * Eviction approximates least-recently-used by second chance (CLOCK): a hit only marks its entry
 * used, where exact LRU would move it to the end of the order on every lookup of every request.
 * The sweep for a victim goes oldest first; a used entry loses its mark and goes to the end, the
 * first unused one is dropped. So a statement in steady use is never dropped, and each sweep
 * clears the marks it passes, so a miss costs O(1) amortized.
 */
export class StatementCache {
  /** Statements by SQL text, oldest first (a Map iterates in insertion order). */
  private readonly statements = new Map<string, CachedStatement>();
  /** The same statements in pluck mode, for queries read as single values. */
  private readonly plucked = new Map<string, CachedStatement>();

  constructor(
    readonly db: Db,
    private readonly capacity = statementCacheSize,
    /** Judges once per statement text what it may change and whether it may run while bookkeeping waits. */
    private readonly judge: (
      sql: string,
      statement: Database.Statement,
    ) => Omit<Prepared, 'statement'> = () => unknownEffect,
  ) {}

  /** How many statements are cached now. */
  get size(): number {
    return this.statements.size + this.plucked.size;
  }

  /** A statement returning rows as objects. */
  rowsOf(sql: string): Prepared {
    return this.lookup(this.statements, sql, false);
  }

  /** A statement returning the first column of each row. */
  valuesOf(sql: string): Prepared {
    return this.lookup(this.plucked, sql, true);
  }

  // Keyed by the SQL text itself (two maps rather than a prefixed key): a string built anew for
  // each lookup would be hashed anew each time, and the callers' SQL is mostly constant.
  private lookup(map: Map<string, CachedStatement>, sql: string, pluck: boolean): Prepared {
    const cached = map.get(sql);
    if (cached) {
      cached.used = true;
      return cached;
    }
    const statement = pluck ? this.db.prepare(sql).pluck(true) : this.db.prepare(sql);
    if (this.size >= this.capacity) {
      evictOne(this.statements.size >= this.plucked.size ? this.statements : this.plucked);
    }
    const entry = { statement, ...this.judge(sql, statement), used: false };
    map.set(sql, entry);
    return entry;
  }
}

/** Drops the oldest entry not used since the last sweep passed it (see StatementCache). */
function evictOne(map: Map<string, CachedStatement>): void {
  for (const [sql, entry] of map) {
    map.delete(sql);
    if (!entry.used) return;
    // Iteration reaches re-inserted entries again, unmarked by then: the sweep always ends.
    entry.used = false;
    map.set(sql, entry);
  }
}
