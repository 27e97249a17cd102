import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ChangeNotice, ChangeSource } from '../../core/port/index.js';

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

/**
 * Sends one notification per account, each payload `<origin>/<q or ->:<account>`: `q` when the
 * commit queued webhook deliveries for the account, `-` when it did not (so the other processes'
 * dispatchers sleep on). A payload of an older process, `<origin>:<account>`, says nothing of
 * deliveries: its listener wakes the dispatcher.
 */
export const notifySql =
  "SELECT pg_notify($1, $2 || '/' || flag || ':' || account) FROM unnest($3::text[], $4::text[]) AS t(account, flag)";

/** The parameters of notifySql after the channel and origin: the accounts, and their flags. */
export function notifyParams(accounts: ReadonlyMap<string, boolean>): [string[], string[]] {
  return [[...accounts.keys()], [...accounts.values()].map((queued) => (queued ? 'q' : '-'))];
}

/** A notification's payload read: its origin, account, and whether it queued deliveries (undefined: not said). */
export function parsePayload(
  payload: string,
): { origin: string; accountId: string; deliveriesQueued: boolean | undefined } | undefined {
  const colon = payload.indexOf(':');
  if (colon < 0) return undefined;
  const head = payload.slice(0, colon);
  const slash = head.indexOf('/');
  const flag = slash < 0 ? undefined : head.slice(slash + 1);
  return {
    origin: slash < 0 ? head : head.slice(0, slash),
    accountId: payload.slice(colon + 1),
    deliveriesQueued: flag === 'q' ? true : flag === '-' ? false : undefined,
  };
}

/**
 * Where notifications come from: one random name per storage. A storage's listener passes over
 * its own (the process that committed has told itself already), so a process does not run a
 * dispatcher's claim for each of its own commits.
 */
export const newOrigin = (): string => randomBytes(8).toString('hex');

/**
 * Notifications off the write path: commits hand over their accounts (each with whether it
 * queued deliveries), and one statement sends every account handed over since the last one,
 * after the commits, on a pooled connection, under no lock. Never fails a commit: a wake-up lost
 * is a hint lost.
 */
export function batchedNotifier(send: (accounts: ReadonlyMap<string, boolean>) => Promise<unknown>) {
  const pending = new Map<string, boolean>();
  let sending: Promise<void> | null = null;
  async function drain(): Promise<void> {
    // Let the commits finishing in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (pending.size > 0) {
      const accounts = new Map(pending);
      pending.clear();
      await send(accounts).catch(() => {});
    }
  }
  return {
    add(accounts: ReadonlyMap<string, boolean>): void {
      for (const [account, queued] of accounts) pending.set(account, queued || pending.get(account) === true);
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
  const listeners = new Set<(accountId: string, change?: ChangeNotice) => void>();
  let connection: Promise<{ client: pg.ClientBase; done(error?: Error): void } | null> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const deliver = (message: pg.Notification) => {
    if (message.channel !== channel || message.payload === undefined) return;
    const parsed = parsePayload(message.payload);
    if (parsed === undefined || parsed.origin === origin) return;
    const change = parsed.deliveriesQueued === undefined ? {} : { deliveriesQueued: parsed.deliveriesQueued };
    for (const listener of listeners) listener(parsed.accountId, change);
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
