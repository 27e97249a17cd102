import type { Server } from 'node:http';
import { z } from 'zod';
import { type InitResult, initWorkspace } from '../../core/tenancy/operations.js';
import { createTracker, type Tracker } from '../../core/tracker.js';
import { nodeWebhookSender } from '../../http/webhook-sender.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { databasePath } from '../database.js';
import { UsageError } from '../errors.js';
import type { CliIo, OpenedDatabase } from '../io.js';
import { defaultServerLimits } from '../server/limits.js';
import { listen, originOf, serverKinds } from '../server/listen.js';
import { requestLogLine } from '../server/request-log.js';
import { closeGracefully } from '../server/shutdown.js';
import { tenancyDeps } from '../tenancy.js';

/** The workspace and admin a fresh database gets, so `npm start` is usable at once. */
export const firstWorkspace = { slug: 'default', adminEmail: 'admin@localhost' } as const;

const purgeEveryMs = 60 * 60 * 1000;
/** How long shutdown waits for requests in flight before cutting the connections left. */
const shutdownGraceMs = 10_000;

/** A whole number written in digits: `--port ''` or `--rate-limit ' '` must not read as 0. */
const digits = (message: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

const portMessage = 'expected a port number from 0 to 65535';
const port = digits(portMessage).pipe(z.number().max(65_535, portMessage));

export const command = defineCommand({
  flags: {
    port: { type: 'string', value: '<port>', description: 'Port to listen on (default: $PORT, else 3000)' },
    host: { type: 'string', value: '<host>', description: 'Address to listen on (default: 127.0.0.1)' },
    server: {
      type: 'string',
      value: '<node|hono>',
      description: 'HTTP host to serve through (default: node)',
    },
    rateLimit: {
      type: 'string',
      value: '<n>',
      description: 'Requests per minute per token or client address (default: 100; 0 turns it off)',
    },
    headersTimeout: {
      type: 'string',
      value: '<ms>',
      description: `Time a client has to send a request's headers (default: ${defaultServerLimits.headersTimeoutMs})`,
    },
    requestTimeout: {
      type: 'string',
      value: '<ms>',
      description: `Time a client has to send a whole request (default: ${defaultServerLimits.requestTimeoutMs}; 0: none)`,
    },
    keepAliveTimeout: {
      type: 'string',
      value: '<ms>',
      description: `How long an idle connection stays open (default: ${defaultServerLimits.keepAliveTimeoutMs})`,
    },
    maxConnections: {
      type: 'string',
      value: '<n>',
      description: `Open connections at most, event streams included (default: ${defaultServerLimits.maxConnections})`,
    },
    allowPrivateWebhooks: {
      type: 'boolean',
      description: 'Deliver webhooks to http:// and private, loopback or link-local addresses',
    },
    ...commonFlags,
  },
  schema: z
    .strictObject({
      port: port.optional(),
      host: z.string().min(1).default('127.0.0.1'),
      server: z.enum(serverKinds).default('node'),
      rateLimit: digits('expected a whole number of requests per minute (0: no limit)').default(100),
      headersTimeout: digits('expected a whole number of milliseconds')
        .pipe(z.number().min(1, 'expected at least 1 ms'))
        .default(defaultServerLimits.headersTimeoutMs),
      requestTimeout: digits('expected a whole number of milliseconds (0: none)').default(
        defaultServerLimits.requestTimeoutMs,
      ),
      keepAliveTimeout: digits('expected a whole number of milliseconds').default(
        defaultServerLimits.keepAliveTimeoutMs,
      ),
      maxConnections: digits('expected a whole number of connections')
        .pipe(z.number().min(1, 'expected at least 1 connection'))
        .default(defaultServerLimits.maxConnections),
      allowPrivateWebhooks: z.boolean().default(false),
      ...commonOptions,
    })
    .refine((input) => input.requestTimeout === 0 || input.headersTimeout <= input.requestTimeout, {
      message: '--headers-timeout must not be longer than --request-timeout',
      path: ['headersTimeout'],
    }),
  notes: [
    'A fresh database gets the workspace "default" with the admin admin@localhost, whose API token',
    'is printed once. SIGTERM or SIGINT: finish requests in flight, exit 0.',
    'Standard output gets the startup (URLs, and on a fresh database the token): with --json one JSON',
    'object on one line. Standard error gets the log: one line per request (a JSON object with --json).',
  ],
  async run(input, io) {
    const listenPort = input.port ?? portFromEnv(io.env.PORT);
    const stop = stopSignals();
    let started: Started;
    try {
      started = await start(input, io, listenPort);
    } catch (error) {
      stop.release();
      throw error;
    }
    const { server, tracker, db, init } = started;
    const origin = originOf(server, input.host);
    announce(io, input.json, { origin, server: input.server, db, init });

    tracker.webhooks.start();
    const purge = () =>
      void tracker
        .purgeExpired()
        .catch((error: unknown) => io.err(`purge of expired records failed: ${describeError(error)}`));
    purge();
    const purgeTimer = setInterval(purge, purgeEveryMs).unref();

    const signal = await stop.signal;
    // A second signal while draining cuts the connections left instead of waiting out the grace period.
    const hurry = () => server.closeAllConnections();
    process.on('SIGTERM', hurry).on('SIGINT', hurry);
    io.err(
      input.json
        ? JSON.stringify({ shutdown: signal })
        : `${signal}: finishing requests in flight, then stopping`,
    );
    clearInterval(purgeTimer);
    await closeGracefully(server, shutdownGraceMs);
    await tracker.close();
    io.err(input.json ? JSON.stringify({ stopped: true }) : 'Stopped.');
  },
});

type ServeInput = z.output<(typeof command)['schema']>;

interface Started {
  server: Server;
  tracker: Tracker;
  db: OpenedDatabase;
  init: InitResult | null;
}

/**
 * SIGTERM and SIGINT, caught from before startup so that one arriving meanwhile still ends in an
 * orderly stop; released when startup fails, so a failed command leaves no handlers behind.
 */
function stopSignals(): { signal: Promise<NodeJS.Signals>; release(): void } {
  let release = () => {};
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve).once('SIGINT', resolve);
    release = () => void process.off('SIGTERM', resolve).off('SIGINT', resolve);
  });
  return { signal, release };
}

/**
 * Binds the port, then opens the database, bootstraps a fresh one and starts answering. The port
 * comes first: when it is taken, no database file has been made yet.
 */
async function start(input: ServeInput, io: CliIo, listenPort: number): Promise<Started> {
  const listening = await listen(input.server, input.host, listenPort, {
    headersTimeoutMs: input.headersTimeout,
    requestTimeoutMs: input.requestTimeout,
    keepAliveTimeoutMs: input.keepAliveTimeout,
    maxConnections: input.maxConnections,
  });
  const { server } = listening;
  let tracker: Tracker | null = null;
  try {
    const db = await io.openDatabase(databasePath(input.db, io.env), { create: true });
    tracker = createTracker({
      storage: db.storage,
      rateLimit: input.rateLimit === 0 ? false : { limit: input.rateLimit, windowMs: 60_000 },
      // The log goes to stderr, so stdout holds only the startup: with --json, one JSON object.
      onRequest: (entry) => io.err(requestLogLine(entry, new Date(), input.json)),
      onError: (error, requestId) => io.err(`request ${requestId} failed: ${describeError(error)}`),
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: input.allowPrivateWebhooks },
    });
    const init = db.created ? await initFirstWorkspace(db) : null;
    listening.serve(tracker);
    return { server, tracker, db, init };
  } catch (error) {
    await new Promise((closed) => server.close(closed));
    await tracker?.close();
    throw error;
  }
}

/** `word` as one shell word: as it is when it holds no character a shell would treat specially. */
const shellWord = (word: string): string =>
  /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;

/** An unexpected error with its stack, where it has one, for the operator reading the log. */
const describeError = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

function portFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const parsed = port.safeParse(value);
  // A malformed value is a usage error (exit 2), as a malformed --port is.
  if (!parsed.success) throw new UsageError(`PORT=${value} is not a port number (${portMessage})`);
  return parsed.data;
}

function initFirstWorkspace(db: OpenedDatabase): Promise<InitResult> {
  return db.storage.transaction((tx) =>
    initWorkspace(tenancyDeps(tx), { slug: firstWorkspace.slug, adminEmail: firstWorkspace.adminEmail }),
  );
}

interface Startup {
  origin: string;
  server: string;
  db: OpenedDatabase;
  init: InitResult | null;
}

function announce(io: CliIo, json: boolean, { origin, server, db, init }: Startup): void {
  const apiUrl = `${origin}/api/v1`;
  const signInUrl = `${origin}/sign-in`;
  // The new workspace's admin page; after sign-in it lists the API tokens.
  const adminUrl = init ? `${origin}/${init.workspaceSlug}/admin/api-tokens` : null;
  if (json) {
    io.out(JSON.stringify({ url: origin, apiUrl, signInUrl, adminUrl, server, db: db.path, init }));
    return;
  }
  io.out(`outcome-tracker serving ${db.path} through the ${server} host`);
  io.out(`API:            ${apiUrl}`);
  io.out(`Admin sign-in:  ${signInUrl}`);
  if (!init || !adminUrl) return;
  io.out(`Admin page:     ${adminUrl}`);
  io.out(`Created workspace "${init.workspaceSlug}" with the admin ${firstWorkspace.adminEmail}.`);
  io.out(`API token (read_write, shown only now): ${init.token}`);
  io.out(
    // The hint names the file served, however it was chosen (--db, $OUTCOME_TRACKER_DB or the
    // default), so it runs against this database from any shell.
    `Set the admin's password for the sign-in page: outcome-tracker users set-password --email ${firstWorkspace.adminEmail} --password-stdin --db ${shellWord(db.path)}`,
  );
}
