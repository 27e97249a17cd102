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
 * The counts of one table kept on write (issue-counts.ts): what one transaction's writes change,
 * summed by count, for the statements its COMMIT carries (multi-row upserts, the counts in the
 * order of their keys). A change costs a map update (a copy of a whole database writes every issue
 * in one transaction); changes that cancel out write nothing.
 */
export class PendingCounts {
  private readonly changes = new Map<string, { key: CountKey; by: number }>();

  constructor(private readonly table: CountTable) {}

  /** Adds `by` to each of `keys`; whether any was given. */
  add(keys: readonly CountKey[], by: number): boolean {
    for (const key of keys) {
      const id = [key.accountId, key.workspaceId, ...key.values].join('\u0000');
      const change = this.changes.get(id);
      if (change) change.by += by;
      else this.changes.set(id, { key, by });
    }
    return keys.length > 0;
  }

  /**
   * The statements the COMMIT carries: every count changed, in key order, each statement of one
   * account (on Citus, of one shard) and at most `rowsAStatement` counts (so that its text is one
   * of few, and its parameters stay well within PostgreSQL's limit however many counts a copy
   * changes); none when all cancelled out.
   */
  statements(): { sql: string; params: (string | number)[] }[] {
    const changed = [...this.changes]
      .filter(([, change]) => change.by !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, change]) => change);
    const statements: { sql: string; params: (string | number)[] }[] = [];
    let run: { key: CountKey; by: number }[] = [];
    for (const change of changed) {
      if (
        run.length === rowsAStatement ||
        (run.length > 0 && run[0]?.key.accountId !== change.key.accountId)
      ) {
        statements.push(this.upsert(run));
        run = [];
      }
      run.push(change);
    }
    if (run.length > 0) statements.push(this.upsert(run));
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
