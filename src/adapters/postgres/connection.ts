import type { PoolClient, QueryResult, QueryResultRow } from 'pg';

type Params = readonly unknown[];

/**
 * What the stores of one transaction use to reach the database. Every call checks that the
 * transaction is still open, so a store kept past its transaction cannot write outside one, and
 * remembers a failed statement: PostgreSQL aborts the whole transaction on one, so a COMMIT
 * afterwards must not pass for success.
 */
export interface Conn {
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, params?: Params): Promise<number>;
  /** The first row, or undefined. */
  row<T extends QueryResultRow>(sql: string, params?: Params): Promise<T | undefined>;
  rows<T extends QueryResultRow>(sql: string, params?: Params): Promise<T[]>;
  /** The first column of the first row, or undefined. */
  value<T>(sql: string, params?: Params): Promise<T | undefined>;
  values<T>(sql: string, params?: Params): Promise<T[]>;
  /**
   * Milliseconds this transaction's statements took, from sending each to its answer
   * (StorageTx.busyMs): the client is the transaction's alone, so that is its own use of the
   * connection and of the server (a statement waiting for a row lock holds the connection
   * meanwhile, and counts), not the wait for a connection before the transaction began.
   */
  busyMs(): number;
}

/** The state of one transaction on its client: open or not, and its first failure. */
export interface TransactionState {
  open: boolean;
  failure: unknown;
}

/** A Conn over `client`, valid while `state.open` holds. */
export function transactionConn(client: PoolClient, state: TransactionState): Conn {
  let spentMs = 0;
  async function query(sql: string, params: Params, rowMode?: 'array'): Promise<QueryResult> {
    if (!state.open) throw new Error('transaction already finished');
    if (state.failure !== undefined) throw state.failure;
    const started = performance.now();
    try {
      return await client.query({ text: sql, values: [...params], ...(rowMode ? { rowMode } : {}) });
    } catch (error) {
      state.failure = error;
      throw error;
    } finally {
      spentMs += performance.now() - started;
    }
  }
  return {
    busyMs: () => spentMs,
    async run(sql, params = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
    async row<T extends QueryResultRow>(sql: string, params: Params = []) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async rows<T extends QueryResultRow>(sql: string, params: Params = []) {
      return (await query(sql, params)).rows as T[];
    },
    async value<T>(sql: string, params: Params = []) {
      const result = await query(sql, params, 'array');
      return (result.rows[0] as unknown[] | undefined)?.[0] as T | undefined;
    },
    async values<T>(sql: string, params: Params = []) {
      const result = await query(sql, params, 'array');
      return (result.rows as unknown[][]).map((row) => row[0] as T);
    },
  };
}
