/**
 * What PendingCounts writes through: Conn.atCommitMade (named structurally here, since the
 * transaction's memo holds the pending counts and the connection holds the memo).
 */
export interface MakesAtCommit {
  atCommitMade(make: () => readonly { sql: string; params: readonly (string | number)[] }[]): void;
}

/** A kept count's table: its key columns after (account_id, workspace_id), and its count column `issues`. */
export interface CountTable {
  table: string;
  keyColumns: readonly string[];
}

/** One count of a CountTable: its account, workspace and the values of its key columns. */
export interface CountKey {
  accountId: string;
  workspaceId: string;
  values: readonly string[];
}

/**
 * Counts kept on write (issue-counts.ts): what one transaction's writes change, summed by count,
 * written with its COMMIT as one statement per table (a multi-row upsert), the counts in the
 * order of their keys, first of the writes the COMMIT carries (Conn.atCommitMade). Every
 * transaction so locks the count rows it changes at its end, before its other commit writes and in
 * one order: two changing the same counts in opposite directions (one issue resolved, another
 * reopened) never wait for each other into a deadlock over them, and a count row is locked only
 * for the COMMIT's round trip. A change costs a map update (a copy of a whole database writes
 * every issue in one transaction); changes that cancel out write nothing.
 */
export class PendingCounts {
  private readonly changes = new Map<string, { key: CountKey; by: number }>();
  private kept = false;

  constructor(private readonly table: CountTable) {}

  /** Adds `by` to each of `keys`, with the COMMIT. */
  add(conn: MakesAtCommit, keys: readonly CountKey[], by: number): void {
    if (keys.length === 0) return;
    for (const key of keys) {
      const id = [key.accountId, key.workspaceId, ...key.values].join('\u0000');
      const change = this.changes.get(id);
      if (change) change.by += by;
      else this.changes.set(id, { key, by });
    }
    if (this.kept) return;
    this.kept = true;
    conn.atCommitMade(() => this.statements());
  }

  /**
   * The statements the COMMIT carries: every count changed, in key order, at most `rowsAStatement`
   * a statement (so that a statement's text is one of few, and its parameters stay well within
   * PostgreSQL's limit however many counts a copy changes); none when all cancelled out.
   */
  private statements(): { sql: string; params: (string | number)[] }[] {
    const changed = [...this.changes]
      .filter(([, change]) => change.by !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, change]) => change);
    const statements: { sql: string; params: (string | number)[] }[] = [];
    for (let at = 0; at < changed.length; at += rowsAStatement)
      statements.push(this.upsert(changed.slice(at, at + rowsAStatement)));
    return statements;
  }

  private upsert(changes: readonly { key: CountKey; by: number }[]): {
    sql: string;
    params: (string | number)[];
  } {
    const { table, keyColumns } = this.table;
    const width = keyColumns.length + 3;
    const params: (string | number)[] = [];
    const rows = changes.map(({ key, by }, i) => {
      params.push(key.accountId, key.workspaceId, ...key.values, by);
      return `(${Array.from({ length: width }, (_, j) => `$${i * width + j + 1}`).join(', ')})`;
    });
    const keys = ['account_id', 'workspace_id', ...keyColumns].join(', ');
    return {
      sql:
        `INSERT INTO ${table} AS c (${keys}, issues) VALUES ${rows.join(', ')} ` +
        `ON CONFLICT (${keys}) DO UPDATE SET issues = c.issues + excluded.issues`,
      params,
    };
  }
}

/** The most counts one statement of PendingCounts changes. */
const rowsAStatement = 32;
