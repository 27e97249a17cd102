import { createHash, randomBytes } from 'node:crypto';
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

/** Sends one notification per account, each payload `<origin>:<account>`. */
export const notifySql = "SELECT pg_notify($1, $2 || ':' || account) FROM unnest($3::text[]) AS account";

/**
 * Where notifications come from: one random name per storage. A storage's listener passes over
 * its own (the process that committed has told itself already), so a process does not run a
 * dispatcher's claim for each of its own commits.
 */
export const newOrigin = (): string => randomBytes(8).toString('hex');

/**
 * Notifications off the write path: commits hand over their accounts, and one statement sends
 * every account handed over since the last one, after the commits, on a pooled connection,
 * under no lock. Never fails a commit: a wake-up lost is a hint lost.
 */
export function batchedNotifier(send: (accounts: string[]) => Promise<unknown>) {
  const pending = new Set<string>();
  let sending: Promise<void> | null = null;
  async function drain(): Promise<void> {
    // Let the commits finishing in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending.size > 0) {
      const accounts = [...pending];
      pending.clear();
      await send(accounts).catch(() => {});
    }
  }
  return {
    add(accounts: Iterable<string>): void {
      for (const account of accounts) pending.add(account);
      sending ??= drain().finally(() => {
        sending = null;
      });
    },
    /** Settles once everything handed over is sent (or failed). */
    async flushed(): Promise<void> {
      while (sending) await sending;
    },
  };
}

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
  origin: string,
  connect: ListenConnection,
): ChangeSource & {
  close(): Promise<void>;
} {
  const listeners = new Set<(accountId: string) => void>();
  let connection: Promise<{ client: pg.ClientBase; done(error?: Error): void } | null> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const own = `${origin}:`;
  const deliver = (message: pg.Notification) => {
    const payload = message.payload;
    if (message.channel !== channel || payload === undefined || payload.startsWith(own)) return;
    const account = payload.slice(payload.indexOf(':') + 1);
    for (const listener of listeners) listener(account);
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
