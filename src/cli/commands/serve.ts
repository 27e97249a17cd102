import type { Server } from 'node:http';
import { z } from 'zod';
import { adminArea } from '../../admin/index.js';
import { normalizeOrigin } from '../../core/edge/cors.js';
import { createMount, normalizeBasePath } from '../../core/edge/mount.js';
import { type InitResult, initWorkspace } from '../../core/tenancy/operations.js';
import { createTracker, type Tracker } from '../../core/tracker.js';
import { nodeWebhookSender } from '../../http/webhook-sender.js';
import { commonFlags, commonOptions, defineCommand } from '../command.js';
import { databasePath } from '../database.js';
import type { CliIo, OpenedDatabase } from '../io.js';
import { withMcpSdk } from '../mcp-sdk.js';
import { defaultServerLimits } from '../server/limits.js';
import { listen, originOf, serverKinds } from '../server/listen.js';
import { logLevels, type ServeLogger, serveLogger } from '../server/logger.js';
import { closeGracefully } from '../server/shutdown.js';
import { tenancyDeps } from '../tenancy.js';
import { toolsetsFlag, toolsetsOption } from '../toolsets-flag.js';

/** The workspace and admin a fresh database gets, so `npm start` is usable at once. */
export const firstWorkspace = { slug: 'default', adminEmail: 'admin@localhost' } as const;

const purgeEveryMs = 60 * 60 * 1000;
/** How often the overdue sweep looks for due days passed: a signal comes within a minute of midnight UTC. */
const sweepEveryMs = 60 * 1000;

/** A whole number written in digits: `--port ''` or `--rate-limit ' '` must not read as 0. */
const digits = (message: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number);

const portMessage = 'expected a port number from 0 to 65535';
const port = digits(portMessage).pipe(z.number().max(65_535, portMessage));

/** Every flag of `serve` can come from the environment: `--rate-limit` from OUTCOME_TRACKER_RATE_LIMIT… */
const fromEnv = (name: string, ...more: string[]) => ({
  env: [`OUTCOME_TRACKER_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`, ...more],
});

/** `--shutdown-grace`: seconds, decimals allowed, or with a unit (`500ms`, `5s`). */
const duration = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,3})?(ms|s)?$/, 'expected seconds, e.g. 5, 2.5, 500ms or 10s')
  .transform((value) =>
    value.endsWith('ms') ? Number(value.slice(0, -2)) : Number(value.replace(/s$/, '')) * 1000,
  );

/** `--cors`: a comma-separated list of origins, each checked as a browser would send it. */
const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== ''),
  )
  .pipe(
    z
      .array(
        z.string().refine(
          (origin) => {
            try {
              normalizeOrigin(origin);
              return true;
            } catch {
              return false;
            }
          },
          { message: 'expected origins such as https://app.example.com (or *), separated by commas' },
        ),
      )
      .min(1, 'expected at least one origin'),
  );

export const command = defineCommand({
  flags: {
    port: {
      type: 'string',
      value: '<port>',
      description: 'Port to listen on (default: 3000)',
      ...fromEnv('port', 'PORT'),
    },
    host: {
      type: 'string',
      value: '<host>',
      description: 'Address to listen on (default: 127.0.0.1)',
      ...fromEnv('host'),
    },
    server: {
      type: 'string',
      value: '<node|hono>',
      description: 'HTTP host to serve through (default: node; hono needs the hono packages)',
      ...fromEnv('server'),
    },
    rateLimit: {
      type: 'string',
      value: '<n>',
      description: 'Requests per minute per token or client address (default: 100; 0 turns it off)',
      ...fromEnv('rateLimit'),
    },
    storageTime: {
      type: 'string',
      value: '<ms>',
      description:
        "Milliseconds of storage time per minute one account's requests may take (default: 10000, or off with --rate-limit 0; 0 turns it off)",
      ...fromEnv('storageTime'),
    },
    trustProxy: {
      type: 'boolean',
      description: 'Take the client address from X-Forwarded-For (set by one proxy in front)',
      ...fromEnv('trustProxy'),
    },
    cors: {
      type: 'string',
      value: '<origin,...>',
      description: 'Let browser apps on these origins call the API (default: none)',
      ...fromEnv('cors'),
    },
    basePath: {
      type: 'string',
      value: '<path>',
      description: 'Where the API is served (default: /api/v1; /x/api/v1 moves /docs to /x/docs)',
      ...fromEnv('basePath'),
    },
    logLevel: {
      type: 'string',
      value: '<level>',
      description: `Least severe log level written: ${logLevels.join(', ')} (default: info)`,
      ...fromEnv('logLevel'),
    },
    shutdownGrace: {
      type: 'string',
      value: '<seconds>',
      description: 'On SIGTERM, how long requests in flight may take to finish (default: 5)',
      ...fromEnv('shutdownGrace'),
    },
    headersTimeout: {
      type: 'string',
      value: '<ms>',
      description: `Time a client has to send a request's headers (default: ${defaultServerLimits.headersTimeoutMs})`,
      ...fromEnv('headersTimeout'),
    },
    requestTimeout: {
      type: 'string',
      value: '<ms>',
      description: `Time a client has to send a whole request (default: ${defaultServerLimits.requestTimeoutMs}; 0: none)`,
      ...fromEnv('requestTimeout'),
    },
    keepAliveTimeout: {
      type: 'string',
      value: '<ms>',
      description: `How long an idle connection stays open (default: ${defaultServerLimits.keepAliveTimeoutMs})`,
      ...fromEnv('keepAliveTimeout'),
    },
    sendTimeout: {
      type: 'string',
      value: '<ms>',
      description: `How long an answer may wait with none of it read before its connection is closed (default: ${defaultServerLimits.sendTimeoutMs}; 0: never)`,
      ...fromEnv('sendTimeout'),
    },
    maxConnections: {
      type: 'string',
      value: '<n>',
      description: `Open connections at most, event streams included (default: ${defaultServerLimits.maxConnections})`,
      ...fromEnv('maxConnections'),
    },
    maxConnectionsPerAddress: {
      type: 'string',
      value: '<n>',
      description: `Open connections one client address may hold at most (default: ${defaultServerLimits.maxConnectionsPerAddress}; 0: no bound, e.g. behind a proxy)`,
      ...fromEnv('maxConnectionsPerAddress'),
    },
    allowPrivateWebhooks: {
      type: 'boolean',
      description: 'Deliver webhooks to http:// and private, loopback or link-local addresses',
      ...fromEnv('allowPrivateWebhooks'),
    },
    mcp: {
      type: 'boolean',
      description: 'Also serve the Model Context Protocol (Streamable HTTP) at /mcp, with the API tokens',
      ...fromEnv('mcp'),
    },
    toolsets: toolsetsFlag('OUTCOME_TRACKER_TOOLSETS'),
    db: { ...commonFlags.db, ...fromEnv('db') },
    json: { ...commonFlags.json, ...fromEnv('json') },
  },
  schema: z
    .strictObject({
      port: port.default(3000),
      host: z.string().min(1).default('127.0.0.1'),
      server: z.enum(serverKinds).default('node'),
      rateLimit: digits('expected a whole number of requests per minute (0: no limit)').default(100),
      storageTime: digits('expected a whole number of milliseconds per minute (0: no limit)').optional(),
      trustProxy: z.boolean().default(false),
      cors: originList.optional(),
      basePath: z
        .string()
        .refine((value) => {
          try {
            normalizeBasePath(value);
            return true;
          } catch {
            return false;
          }
        }, 'expected a path such as /api/v1 or /tracker/api/v1')
        .default('/api/v1'),
      logLevel: z.enum(logLevels).default('info'),
      shutdownGrace: duration.default(5_000),
      headersTimeout: digits('expected a whole number of milliseconds')
        .pipe(z.number().min(1, 'expected at least 1 ms'))
        .default(defaultServerLimits.headersTimeoutMs),
      requestTimeout: digits('expected a whole number of milliseconds (0: none)').default(
        defaultServerLimits.requestTimeoutMs,
      ),
      keepAliveTimeout: digits('expected a whole number of milliseconds').default(
        defaultServerLimits.keepAliveTimeoutMs,
      ),
      sendTimeout: digits('expected a whole number of milliseconds (0: never)').default(
        defaultServerLimits.sendTimeoutMs,
      ),
      maxConnections: digits('expected a whole number of connections')
        .pipe(z.number().min(1, 'expected at least 1 connection'))
        .default(defaultServerLimits.maxConnections),
      maxConnectionsPerAddress: digits('expected a whole number of connections (0: no bound)').default(
        defaultServerLimits.maxConnectionsPerAddress,
      ),
      allowPrivateWebhooks: z.boolean().default(false),
      mcp: z.boolean().default(false),
      toolsets: toolsetsOption,
      ...commonOptions,
    })
    .refine((input) => input.toolsets === undefined || input.mcp, {
      message: 'chooses the tools of /mcp: give --mcp too',
      path: ['toolsets'],
    })
    .refine((input) => input.requestTimeout === 0 || input.headersTimeout <= input.requestTimeout, {
      message: '--headers-timeout must not be longer than --request-timeout',
      path: ['headersTimeout'],
    }),
  notes: [
    'A fresh database gets the workspace "default" with the admin admin@localhost, whose API token',
    'is printed once. The API reference is served at /docs, the OpenAPI document at /api/v1/openapi.json;',
    '/healthz answers while the process lives, /readyz while storage answers.',
    'SIGTERM or SIGINT: event streams end at once, requests in flight finish (up to --shutdown-grace), exit 0.',
    'Standard output gets the startup (URLs, and on a fresh database the token): with --json one JSON',
    'object on one line. Standard error gets the log: JSON lines (level, time, requestId, ...).',
    'Every flag can also be set by the environment variable in brackets; a flag given wins.',
  ],
  async run(input, io) {
    const log = serveLogger(io, input.logLevel);
    const stop = stopSignals();
    let started: Started;
    try {
      started = await start(input, io, log);
    } catch (error) {
      stop.release();
      await log.flush();
      throw error;
    }
    const { server, tracker, db, init } = started;
    const origin = originOf(server, input.host);
    announce(io, input.json, {
      origin,
      server: input.server,
      db,
      init,
      basePath: tracker.basePath,
      mcp: input.mcp,
    });
    log.logger.info({ url: origin, server: input.server }, 'listening');

    tracker.webhooks.start();
    // The purge in progress is awaited before storage closes, so it never logs after "stopped".
    let purging: Promise<void> = Promise.resolve();
    const purge = () => {
      purging = tracker.purgeExpired().then(
        (purged) => log.logger.info({ purged }, 'purged expired records'),
        (error: unknown) => log.logger.error({ err: error }, 'purge of expired records failed'),
      );
    };
    purge();
    const purgeTimer = setInterval(purge, purgeEveryMs).unref();
    // One sweep at a time: a slow one is not overtaken by the next (each would find the same rows).
    let sweeping: Promise<void> | null = null;
    const sweep = () => {
      sweeping ??= tracker
        .sweepOverdue()
        .then(
          (signalled) => {
            if (signalled > 0) log.logger.info({ signalled }, 'signalled overdue items');
          },
          (error: unknown) => log.logger.error({ err: error }, 'overdue sweep failed'),
        )
        .finally(() => {
          sweeping = null;
        });
    };
    sweep();
    const sweepTimer = setInterval(sweep, sweepEveryMs).unref();

    const signal = await stop.signal;
    // A second signal while draining cuts the connections left instead of waiting out the grace period.
    const hurry = () => server.closeAllConnections();
    process.on('SIGTERM', hurry).on('SIGINT', hurry);
    log.logger.info({ signal, graceMs: input.shutdownGrace }, 'shutting down');
    clearInterval(purgeTimer);
    clearInterval(sweepTimer);
    // Event streams never end by themselves: end them now, so only real requests use the grace.
    tracker.endStreams();
    await closeGracefully(server, input.shutdownGrace);
    await purging;
    await sweeping;
    await tracker.close();
    log.logger.info('stopped');
    await log.flush();
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
async function start(input: ServeInput, io: CliIo, log: ServeLogger): Promise<Started> {
  const { logger } = log;
  // Loaded only when asked for, and before the port is bound: the MCP SDK is an optional
  // dependency, and without it --mcp is refused with what to install.
  const mcpModule = input.mcp ? await withMcpSdk('--mcp', () => import('../../mcp/http.js')) : null;
  const listening = await listen(input.server, input.host, input.port, {
    headersTimeoutMs: input.headersTimeout,
    requestTimeoutMs: input.requestTimeout,
    keepAliveTimeoutMs: input.keepAliveTimeout,
    maxConnections: input.maxConnections,
    maxConnectionsPerAddress: input.maxConnectionsPerAddress,
    sendTimeoutMs: input.sendTimeout,
  });
  const { server } = listening;
  let tracker: Tracker | null = null;
  try {
    const db = await io.openDatabase(databasePath(input.db, io.env), { create: true });
    const mcp = mcpModule
      ? mcpModule.mcpEndpoint({
          ...(input.toolsets !== undefined ? { toolsets: input.toolsets } : {}),
          onError: (error) => logger.error({ err: error }, 'mcp failed'),
        })
      : null;
    tracker = createTracker({
      ...(mcp ? { mcp } : {}),
      storage: db.storage,
      // The sign-in and settings pages, the landing page, and HTML error pages for browsers.
      extensions: [adminArea()],
      basePath: input.basePath,
      ...(input.cors ? { cors: { origins: input.cors } } : {}),
      trustProxy: input.trustProxy,
      rateLimit: input.rateLimit === 0 ? false : { limit: input.rateLimit, windowMs: 60_000 },
      ...(input.storageTime === undefined
        ? {}
        : {
            storageTimeBudget:
              input.storageTime === 0 ? false : { msPerWindow: input.storageTime, windowMs: 60_000 },
          }),
      // The log goes to stderr, so stdout holds only the startup: with --json, one JSON object.
      onRequest: log.request,
      onError: (error, requestId) => logger.error({ err: error, requestId }, 'request failed'),
      webhooks: {
        sender: nodeWebhookSender(),
        allowPrivateTargets: input.allowPrivateWebhooks,
        // Every attempt is a log line: a failing receiver shows up in the log, not only in the API.
        onAttempt: (attempt) =>
          (attempt.outcome === 'delivered' ? logger.info : logger.warn).call(
            logger,
            attempt,
            'webhook attempt',
          ),
      },
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
  basePath: string;
  mcp: boolean;
}

function announce(io: CliIo, json: boolean, { origin, server, db, init, basePath, mcp }: Startup): void {
  const mount = createMount(basePath);
  const at = (path: string) => `${origin}${mount.outbound(path)}`;
  const apiUrl = at('/api/v1');
  const docsUrl = at('/docs');
  const openApiUrl = at('/api/v1/openapi.json');
  const signInUrl = at('/sign-in');
  const mcpUrl = mcp ? at('/mcp') : null;
  // The new workspace's admin page; after sign-in it lists the API tokens.
  const adminUrl = init ? at(`/${init.workspaceSlug}/admin/api-tokens`) : null;
  if (json) {
    io.out(
      JSON.stringify({
        url: origin,
        apiUrl,
        docsUrl,
        openApiUrl,
        signInUrl,
        adminUrl,
        // Only when served: the startup object of a server without MCP stays as it was.
        ...(mcpUrl ? { mcpUrl } : {}),
        server,
        db: db.path,
        init,
      }),
    );
    return;
  }
  io.out(`outcome-tracker serving ${db.path} through the ${server} host`);
  io.out(`API:            ${apiUrl}`);
  io.out(`API reference:  ${docsUrl}`);
  io.out(`OpenAPI:        ${openApiUrl}`);
  io.out(`Admin sign-in:  ${signInUrl}`);
  if (mcpUrl) io.out(`MCP:            ${mcpUrl}`);
  if (!init || !adminUrl) return;
  io.out(`Admin page:     ${adminUrl}`);
  io.out(`Created workspace "${init.workspaceSlug}" with the admin ${firstWorkspace.adminEmail}.`);
  io.out(`API token (read_write, shown only now): ${init.token}`);
  io.out(
    // The hint names the file served, however it was chosen (--db, $OUTCOME_TRACKER_DB or the
    // default), so it runs against this database from any shell; and the command as it runs where
    // the server was started (`npx outcome-tracker` in a checkout, where there is no global one).
    `Set the admin's password for the sign-in page: ${io.invocation ?? 'outcome-tracker'} users set-password --email ${firstWorkspace.adminEmail} --password-stdin --db ${shellWord(db.path)}`,
  );
}
