import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { adminArea } from '../../src/admin/index.js';
import {
  type Clock,
  createTracker,
  type Ids,
  issues,
  projects,
  type RequestLogEntry,
  type Role,
  type Storage,
  type TokenScope,
  type Tracker,
  type TrackerOptions,
  tenancy,
} from '../../src/core/index.js';
import type { RateLimitOptions } from '../../src/core/pipeline/rate-limit.js';
import type { ScryptCost } from '../../src/core/tenancy/password.js';
import { honoApp, honoRequestError } from '../../src/http/hono.js';
import { nodeHandler } from '../../src/http/node.js';
import { createResponseChecker } from '../openapi/response-validator.js';
import { testPasswordCost } from '../support/password-cost.js';

/** The two hosts the HTTP suite runs through. */
export type Host = 'node' | 'hono';
export const hosts: readonly Host[] = ['node', 'hono'];

/** The instant every test server starts at (the contract's example timestamp). */
export const startTime = Date.parse('2026-11-22T10:00:00.000Z');

/** A clock the test moves by hand: nothing in a test depends on the wall clock. */
export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function fakeClock(start = startTime): FakeClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    set: (ms) => {
      now = ms;
    },
  };
}

export interface ServerOptions {
  /** Defaults to a fresh memoryStorage(). */
  storage?: Storage;
  /** Passed to createTracker; the default is the tracker's own (100 per minute). */
  rateLimit?: RateLimitOptions | false;
  /** Defaults to a fake clock at `startTime`. */
  clock?: FakeClock;
  ids?: Ids;
  /** Receives the tracker's request log entries (and unexpected errors), e.g. to check what is logged. */
  onRequest?: (entry: RequestLogEntry) => void;
  onError?: (error: unknown, requestId: string) => void;
  /** Passed to createTracker (a real sender and private targets, for pages that send webhooks). */
  webhooks?: TrackerOptions['webhooks'];
  signalRetentionMs?: number;
  /** Whether the admin pages are mounted, as `serve` mounts them; default true. */
  admin?: boolean;
  /** The scrypt cost of the admin pages' password hashes; default the tests' cheap one. */
  passwordCost?: ScryptCost;
}

export interface ApiOptions {
  /** A plain token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Serialized as JSON with `Content-Type: application/json`. */
  body?: unknown;
  /** Sent as it is, with no Content-Type unless `headers` give one. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The raw response body. */
  text: string;
  /** The parsed body, or undefined when it is empty. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  json: any;
}

export type Api = (method: string, path: string, options?: ApiOptions) => Promise<ApiResponse>;

/** A token and who it acts for. */
export interface SeededToken {
  id: string;
  plain: string;
  userId: string;
  scope: TokenScope;
}

export interface SeededWorkspace {
  accountId: string;
  workspaceId: string;
  slug: string;
  adminUserId: string;
  /** The admin's read_write token from initWorkspace, and its id. */
  adminToken: string;
  adminTokenId: string;
  /** A project "Apollo" (key APO). */
  projectId: string;
  projectKey: string;
}

export interface TestServer {
  host: Host;
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  tracker: Tracker;
  storage: Storage;
  clock: FakeClock;
  /** The configured requests per window (100 unless `rateLimit` said otherwise), or null when off. */
  limit: number | null;
  /** The main workspace, with an admin, a member and a viewer. */
  ws: SeededWorkspace;
  tokens: {
    /** Admin, read_write (from initWorkspace). */
    admin: string;
    /** Admin, read scope. */
    read: SeededToken;
    /** Member, read_write. */
    member: SeededToken;
    /** Viewer, read_write (the role, not the scope, forbids writing). */
    viewer: SeededToken;
  };
  /** Another account and workspace (another tenant) with its own project and one issue. */
  other: SeededWorkspace & { issueId: string; issueKey: string };
  /** Sends one request to this server. */
  api: Api;
  /** Adds a user to a workspace (the main one by default) with a role and a token of a scope. */
  addMember(
    role: Role,
    options?: { scope?: TokenScope; workspaceId?: string; email?: string },
  ): Promise<SeededToken>;
  /** Issues another token for a user of a workspace (the main one by default). */
  issueToken(userId: string, scope: TokenScope, workspaceId?: string): Promise<SeededToken>;
  close(): Promise<void>;
}

const checkResponse = createResponseChecker();

/** Sends one request with the global fetch and checks the answer against the OpenAPI document. */
export async function request(baseUrl: string, method: string, path: string, options: ApiOptions = {}) {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.rawBody !== undefined) {
    body = options.rawBody;
  }
  Object.assign(headers, options.headers ?? {});
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: body as string } : {}),
  });
  const text = await response.text();
  let json: unknown;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const result = { status: response.status, headers: response.headers, text, json } satisfies ApiResponse;
  // Every response the suites see must be the one the OpenAPI document promises.
  const problems = checkResponse(method, path, result);
  if (problems.length > 0) throw new Error(`Response not as documented:\n${problems.join('\n')}`);
  return result;
}

/** Serves the tracker on 127.0.0.1, on a port of its own, through one of the hosts. */
export async function listen(host: Host, tracker: Tracker): Promise<{ server: Server; port: number }> {
  if (host === 'node') {
    const server = createServer(nodeHandler(tracker));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return { server, port: (server.address() as AddressInfo).port };
  }
  // @hono/node-server's request listener, as `serve --server hono` uses it (with its errorHandler).
  const server = createServer(
    getRequestListener(honoApp(tracker).fetch, { hostname: '127.0.0.1', errorHandler: honoRequestError }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Creates an account, its workspace with an admin and a read_write token, and a project "Apollo". */
export async function seedWorkspace(
  tracker: Tracker,
  storage: Storage,
  ids: Ids,
  now: number,
  slug: string,
  adminEmail: string,
): Promise<SeededWorkspace> {
  const init = await storage.transaction((tx) =>
    tenancy.initWorkspace({ tx, ids, now }, { slug, adminEmail }),
  );
  const [adminToken] = await storage.transaction((tx) => tx.tokens.list(init.workspaceId));
  if (!adminToken) throw new Error('initWorkspace issued no token');
  const project = await tracker.run({ workspaceSlug: slug }, (ctx) =>
    projects.create(ctx, { name: 'Apollo' }),
  );
  return {
    accountId: init.accountId,
    workspaceId: init.workspaceId,
    slug,
    adminUserId: init.userId,
    adminToken: init.token,
    adminTokenId: adminToken.id,
    projectId: project.id,
    projectKey: project.key,
  };
}

/**
 * Starts a tracker behind a real HTTP server on 127.0.0.1 (a free port) through the given host,
 * and seeds two tenants: the main workspace (admin, member, viewer, project APO) and another
 * account's workspace (admin, project APO, issue APO-1).
 */
export async function startServer(host: Host, options: ServerOptions = {}): Promise<TestServer> {
  const storage = options.storage ?? memoryStorage();
  const clock = options.clock ?? fakeClock();
  const tracker = createTracker({
    storage,
    clock,
    // The server as `serve` runs it: the admin pages mounted.
    extensions:
      options.admin === false ? [] : [adminArea({ passwordCost: options.passwordCost ?? testPasswordCost })],
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    onError: options.onError ?? (() => {}),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    ...(options.signalRetentionMs !== undefined ? { signalRetentionMs: options.signalRetentionMs } : {}),
  });
  const ids = tracker.ids;
  const ws = await seedWorkspace(tracker, storage, ids, clock.now(), 'acme', 'admin@acme.test');

  const issueToken = async (userId: string, scope: TokenScope, workspaceId = ws.workspaceId) => {
    const issued = await storage.transaction((tx) =>
      tenancy.issueToken(
        { tx, ids, now: clock.now() },
        { workspaceId, userId, name: `${scope} token`, scope },
      ),
    );
    return { id: issued.token.id, plain: issued.plain, userId, scope } satisfies SeededToken;
  };
  const addMember: TestServer['addMember'] = async (role, memberOptions = {}) => {
    const workspaceId = memberOptions.workspaceId ?? ws.workspaceId;
    const email = memberOptions.email ?? `${role}-${randomUUID().slice(0, 8)}@acme.test`;
    const { user } = await storage.transaction((tx) =>
      tenancy.addMember({ tx, ids, now: clock.now() }, { workspaceId, email, role }),
    );
    return issueToken(user.id, memberOptions.scope ?? 'read_write', workspaceId);
  };

  const read = await issueToken(ws.adminUserId, 'read');
  const member = await addMember('member', { email: 'member@acme.test' });
  const viewer = await addMember('viewer', { email: 'viewer@acme.test' });

  const otherWs = await seedWorkspace(tracker, storage, ids, clock.now(), 'globex', 'admin@globex.test');
  const otherIssue = await tracker.run({ workspaceSlug: 'globex' }, (ctx) =>
    issues.create(ctx, { projectId: otherWs.projectId, title: 'Globex secret issue' }),
  );

  const { server, port } = await listen(host, tracker);
  const url = `http://127.0.0.1:${port}`;
  return {
    host,
    url,
    tracker,
    storage,
    clock,
    limit: options.rateLimit === false ? null : (options.rateLimit?.limit ?? 100),
    ws,
    tokens: { admin: ws.adminToken, read, member, viewer },
    other: { ...otherWs, issueId: otherIssue.id, issueKey: otherIssue.key },
    api: (method, path, apiOptions) => request(url, method, path, apiOptions),
    addMember,
    issueToken,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await tracker.close();
    },
  };
}

/** A fresh Idempotency-Key. */
export const newKey = (): string => randomUUID();
