import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ChangeSource } from '../../core/storage.js';

/**
 * The NOTIFY channel of one schema: storages on other schemas of the database (tests, several
 * trackers) do not wake each other. Channel names are at most 63 bytes.
 */
export function channelOf(schema: string): string {
  const name = `outcome_tracker:${schema}`;
  return Buffer.byteLength(name) <= 63
    ? name
    : `outcome_tracker:${createHash('sha256').update(schema).digest('hex').slice(0, 40)}`;
}

/** Sends, after a commit, one notification per account the transaction appended events to. */
export const notifySql = 'SELECT pg_notify($1, account) FROM unnest($2::text[]) AS account';

/** How the listener gets its own connection: a client of the pool's settings, or of the pool. */
export type ListenConnection = () => Promise<{ client: pg.ClientBase; done(error?: Error): void }>;

/** How long the listener waits before connecting again after losing its connection. */
const reconnectDelayMs = 1000;

/**
 * Cross-process wake-ups: one dedicated connection LISTENs on the schema's channel while anyone
 * subscribes, and hands every notification's account to the subscribers. Notifications are
 * sent after commit (never inside the transaction: NOTIFY takes a lock that would serialize
 * every commit), so a rolled-back transaction wakes no one. They are hints: while the
 * connection is down some are lost, and readers still poll.
 */
export function changeListener(
  channel: string,
  connect: ListenConnection,
): ChangeSource & {
  close(): Promise<void>;
} {
  const listeners = new Set<(accountId: string) => void>();
  let connection: Promise<{ client: pg.ClientBase; done(error?: Error): void } | null> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const deliver = (message: pg.Notification) => {
    if (message.channel !== channel || message.payload === undefined) return;
    for (const listener of listeners) listener(message.payload);
  };

  function start(): void {
    if (connection || closed || listeners.size === 0) return;
    connection = (async () => {
      try {
        const { client, done } = await connect();
        const lost = (error?: Error) => {
          client.off('notification', deliver);
          done(error ?? new Error('listen connection ended'));
          connection = null;
          if (!closed) retryTimer = setTimeout(start, reconnectDelayMs);
        };
        client.on('notification', deliver);
        client.once('error', lost);
        client.once('end', () => lost());
        await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
        return { client, done };
      } catch {
        connection = null;
        if (!closed) retryTimer = setTimeout(start, reconnectDelayMs);
        return null;
      }
    })();
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const open = await connection;
      connection = null;
      if (!open) return;
      open.client.off('notification', deliver);
      open.client.removeAllListeners('end');
      open.client.removeAllListeners('error');
      // Ignore errors on the way out: the connection may already be gone.
      open.client.on('error', () => {});
      await open.client.query('UNLISTEN *').catch(() => {});
      open.done();
    },
  };
}
