import { GroupWorkFailed } from './errors.js';
import type { Db, GroupBookkeeping, ListedRow, StatementEffect } from './types.js';

/** The tables DeferredBookkeeping writes: a statement that names one sees them only after a flush. */
const bookkeepingTables = /\b(?:list_counts|signal_counts|search_pending|counters)\b/i;

/**
 * The rows every insert adds to besides its own: one more in each list total it falls in
 * (migrations 2 and 6), one more of its signal type (migration 9), a note that the search index
 * lacks it (migration 5), the next number of its project. Written by a statement each, they were
 * about a tenth of a create's CPU; a write group of thirty creates in one project adds to the
 * same few rows thirty times. So they are kept here, in memory, and written once per row at the
 * end of the group, inside its transaction (before COMMIT, or before the RELEASE of a member run
 * in a savepoint of its own), and thrown away when the transaction or savepoint is rolled back.
 *
 * Nothing may see those tables while something is pending: every statement that might is
 * preceded by a flush (see `commutesWithBookkeeping`), so a total read in the transaction, or a
 * trigger of an update or delete that takes one off a total, always meets the rows as they would
 * be had each insert written its own. Work that adds here counts as having written (the queue
 * then takes a failing member's group back rather than commit half of it).
 */
export class DeferredBookkeeping implements GroupBookkeeping {
  /** Inserted rows by their collection, workspace and counted values (one entry for rows alike). */
  private readonly listedRows = new Map<string, { row: ListedRow; n: number }>();
  private readonly signalCounts = new Map<string, { accountId: string; type: string; n: number }>();
  private readonly searchNotes = new Map<string, number[]>();
  /** Counters taken in this transaction since the last flush, by name: the workspace and value each holds now. */
  private readonly counters = new Map<string, { workspaceId: string; value: number }>();
  private readonly statements: ReturnType<typeof prepare>;
  private pending = false;
  /**
   * Set when a flush failed: it may have written part of what waited, and the rest is gone, so
   * no flush may succeed (and no COMMIT follow) until a rollback discards the transaction.
   */
  private failure: GroupWorkFailed | undefined;

  constructor(db: Db) {
    this.statements = prepare(db);
  }

  /** Nothing waits to be written. */
  get isEmpty(): boolean {
    return !this.pending;
  }

  /**
   * One more row in the collection's list totals: the workspace's, and one per counted column
   * for the value the row holds (`values`, in the order of `columns`; a NULL is char(0)).
   */
  countListedRow(row: ListedRow): void {
    // One key for the whole row: thirty rows alike are one entry, expanded at the flush. JSON,
    // not a separator: no value can make two different rows one key.
    const id = JSON.stringify([row.collection, row.workspaceId, ...row.values]);
    const entry = this.listedRows.get(id);
    if (entry) entry.n++;
    else this.listedRows.set(id, { row, n: 1 });
    this.pending = true;
  }

  /** One more event of the account and type. */
  countSignal(accountId: string, type: string): void {
    const id = JSON.stringify([accountId, type]);
    const entry = this.signalCounts.get(id);
    if (entry) entry.n++;
    else this.signalCounts.set(id, { accountId, type, n: 1 });
    this.pending = true;
  }

  /** The row `pk` of `table` is to be (re)written to the search index. */
  noteSearch(table: string, pk: number): void {
    const notes = this.searchNotes.get(table);
    if (notes) notes.push(pk);
    else this.searchNotes.set(table, [pk]);
    this.pending = true;
  }

  /** The counter's next value (1 for a counter never used), counted up in memory after its first read. */
  nextCounter(workspaceId: string, name: string): number {
    const value =
      (this.counters.get(name)?.value ?? (this.statements.counter.get(name) as number | undefined) ?? 0) + 1;
    this.counters.set(name, { workspaceId, value });
    this.pending = true;
    return value;
  }

  /**
   * Writes what waits, one statement per row it changes, and forgets it. A failure is the group's
   * (GroupWorkFailed), and every later flush fails with it until `discard`.
   */
  flush(): void {
    if (this.failure) throw this.failure;
    if (!this.pending) return;
    const { counters, listedRows, signalCounts, searchNotes } = this;
    // Forgotten first: should a statement fail, the transaction is rolled back (and this
    // discarded) by the caller, and nothing here may be written twice.
    const work = {
      counters: [...counters],
      listCounts: listCountChanges(listedRows.values()),
      signalCounts: [...signalCounts.values()],
      searchNotes: [...searchNotes],
    };
    this.discard();
    const s = this.statements;
    try {
      for (const [name, { workspaceId, value }] of work.counters) s.setCounter.run(name, workspaceId, value);
      for (const { key, n } of work.listCounts) s.addToListCount.run(...key, n);
      for (const { accountId, type, n } of work.signalCounts) s.addToSignalCount.run(accountId, type, n);
      for (const [table, pks] of work.searchNotes) s.noteSearch.run(table, JSON.stringify(pks));
    } catch (error) {
      this.failure = new GroupWorkFailed(error);
      throw this.failure;
    }
  }

  /** Forgets what waits: its transaction or savepoint was rolled back. */
  discard(): void {
    this.listedRows.clear();
    this.signalCounts.clear();
    this.searchNotes.clear();
    this.counters.clear();
    this.pending = false;
    this.failure = undefined;
  }
}

/** What the rows add to each list total: (collection, workspace, field, value) and how many. */
function listCountChanges(rows: Iterable<{ row: ListedRow; n: number }>) {
  const changes = new Map<string, { key: readonly string[]; n: number }>();
  const add = (key: readonly string[], n: number) => {
    const id = JSON.stringify(key);
    const change = changes.get(id);
    if (change) change.n += n;
    else changes.set(id, { key, n });
  };
  for (const { row, n } of rows) {
    add([row.collection, row.workspaceId, '', ''], n);
    row.columns.forEach((column, i) => {
      add([row.collection, row.workspaceId, column, row.values[i] as string], n);
    });
  }
  return [...changes.values()];
}

function prepare(db: Db) {
  return {
    counter: db.prepare('SELECT value FROM counters WHERE name = ?').pluck(true),
    setCounter: db.prepare(
      'INSERT INTO counters (name, workspace_id, value) VALUES (?, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET workspace_id = excluded.workspace_id, value = excluded.value',
    ),
    addToListCount: db.prepare(
      'INSERT INTO list_counts (collection, workspace_id, field, value, n) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (collection, workspace_id, field, value) DO UPDATE SET n = n + excluded.n',
    ),
    addToSignalCount: db.prepare(
      'INSERT INTO signal_counts (account_id, type, n) VALUES (?, ?, ?) ' +
        'ON CONFLICT (account_id, type) DO UPDATE SET n = n + excluded.n',
    ),
    noteSearch: db.prepare(
      'INSERT OR IGNORE INTO search_pending (tbl, pk) SELECT ?, value FROM json_each(?)',
    ),
  };
}

/**
 * Whether a statement may run while bookkeeping is pending: it names none of the bookkeeping
 * tables and either only reads or only inserts (see StatementEffect: no trigger fires, so no
 * total changes). Any other statement (an update or delete of a counted row, whose triggers
 * change the totals; a read of a total) runs after a flush.
 */
export const commutesWithBookkeeping = (sql: string, effect: StatementEffect): boolean =>
  effect.kind !== 'write' &&
  !bookkeepingTables.test(sql) &&
  (effect.kind === 'read' || !effect.tables.some((table) => bookkeepingTables.test(table)));
