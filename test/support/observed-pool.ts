import type pg from 'pg';

type ConnectCallback = (
  error: unknown,
  client?: pg.PoolClient,
  done?: (error?: Error | boolean) => void,
) => void;

/**
 * Calls `onClient` once for each client `pool` hands out, before its first use: for a test that
 * wraps a client's `query` to see what a storage sends on it. Both of pg's forms of `connect`
 * are covered: the promise, and the callback `pool.query` uses.
 */
export function observeClients(pool: pg.Pool, onClient: (client: pg.PoolClient) => void): void {
  const connect = pool.connect.bind(pool);
  const seen = new WeakSet<pg.PoolClient>();
  const observed = (client: pg.PoolClient): pg.PoolClient => {
    if (!seen.has(client)) {
      seen.add(client);
      onClient(client);
    }
    return client;
  };
  const wrapped = (callback?: ConnectCallback) => {
    if (!callback) return connect().then(observed);
    connect().then(
      (client) => callback(undefined, observed(client), (error) => client.release(error)),
      (error) => callback(error),
    );
    return undefined;
  };
  (pool as unknown as { connect: typeof wrapped }).connect = wrapped;
}
