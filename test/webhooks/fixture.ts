import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import {
  createTracker,
  issues,
  projects,
  type Storage,
  type Tracker,
  type TrackerOptions,
  tenancy,
  type WebhookDelivery,
  type WebhookSubscription,
} from '../../src/core/index.js';
import { type FakeClock, fakeClock } from '../http/harness.js';

/** One request a test receiver got, with the tracker's (fake) time it arrived at. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
  atMs: number;
}

/** How a test receiver answers one request. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A real node:http server on 127.0.0.1 that records every request and connection. */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** TCP connections accepted, whether or not a request followed (a refused TLS handshake counts). */
  connections(): number;
  /** Changes how later requests are answered. */
  answer(next: (request: Received) => Answer | Promise<Answer>): void;
  close(): Promise<void>;
}

/** Starts a receiver answering 200 unless told otherwise; `now` stamps each arrival. */
export async function startReceiver(now: () => number = () => Date.now()): Promise<Receiver> {
  let respond: (request: Received) => Answer | Promise<Answer> = () => ({ status: 200 });
  let connections = 0;
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        atMs: now(),
      };
      received.push(request);
      const answer = await respond(request);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    connections: () => connections,
    answer: (next) => {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What `api` answers: status, headers and the parsed JSON body. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
  json: any;
}

export interface Tenant {
  accountId: string;
  workspaceId: string;
  slug: string;
  /** The admin's read_write token. */
  token: string;
  projectId: string;
}

export interface WebhookFixture {
  tracker: Tracker;
  storage: Storage;
  clock: FakeClock;
  /** Errors the tracker reported (failed dispatcher steps); tests that expect none check it is empty. */
  errors: unknown[];
  main: Tenant;
  other: Tenant;
  /** Seeds one more account with a workspace, an admin token and a project. */
  addTenant(slug: string): Promise<Tenant>;
  /** Sends one request through `tracker.handle` (no host: the hosts are proven elsewhere). */
  api(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  /** Creates a subscription through the API (201 expected) and returns it with its secret. */
  subscribe(url: string, eventTypes?: string[], tenant?: Tenant): Promise<{ id: string; secret: string }>;
  /** Creates an issue as the tenant's operator: one `issue.created` signal. */
  createIssue(title: string, tenant?: Tenant): Promise<string>;
  deliveries(subscriptionId?: string): Promise<WebhookDelivery[]>;
  subscription(id: string, tenant?: Tenant): Promise<WebhookSubscription | null>;
  close(): Promise<void>;
}

/**
 * A tracker over `storage` (a fresh memory store by default) with a fake clock and two tenants,
 * each with an admin token and a project. `webhooks` goes to createTracker as it is.
 */
export async function webhookFixture(
  options: {
    storage?: Storage;
    clock?: FakeClock;
    webhooks?: TrackerOptions['webhooks'];
    /** Off unless given, so long tests are never refused. */
    rateLimit?: TrackerOptions['rateLimit'];
  } = {},
): Promise<WebhookFixture> {
  const storage = options.storage ?? memoryStorage();
  const clock = options.clock ?? fakeClock();
  const errors: unknown[] = [];
  const tracker = createTracker({
    storage,
    clock,
    rateLimit: options.rateLimit ?? false,
    onError: (error) => {
      errors.push(error);
    },
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  });

  const seed = async (slug: string): Promise<Tenant> => {
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: clock.now() },
        { slug, adminEmail: `admin@${slug}.test` },
      ),
    );
    const project = await tracker.run({ workspaceSlug: slug }, (ctx) =>
      projects.create(ctx, { name: 'Apollo' }),
    );
    return {
      accountId: init.accountId,
      workspaceId: init.workspaceId,
      slug,
      token: init.token,
      projectId: project.id,
    };
  };
  const main = await seed('acme');
  const other = await seed('globex');

  const api: WebhookFixture['api'] = async (method, path, apiOptions = {}) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiOptions.token ?? main.token}`,
      ...(apiOptions.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method === 'POST' && !path.includes('/test') && !path.includes('/retry')
        ? { 'idempotency-key': randomUUID() }
        : {}),
      ...apiOptions.headers,
    };
    const response = await tracker.handle({
      method,
      path: `/api/v1${path}`,
      headers,
      body: apiOptions.body !== undefined ? JSON.stringify(apiOptions.body) : null,
    });
    return {
      status: response.status,
      headers: response.headers,
      json: response.body ? JSON.parse(Buffer.from(response.body).toString()) : undefined,
    };
  };

  return {
    tracker,
    storage,
    clock,
    errors,
    main,
    other,
    addTenant: seed,
    api,
    async subscribe(url, eventTypes = ['issue.created'], tenant = main) {
      const created = await api('POST', '/webhooks', { token: tenant.token, body: { url, eventTypes } });
      if (created.status !== 201)
        throw new Error(`subscribe answered ${created.status}: ${JSON.stringify(created.json)}`);
      return { id: created.json.id, secret: created.json.secret };
    },
    async createIssue(title, tenant = main) {
      const issue = await tracker.run({ workspaceSlug: tenant.slug }, (ctx) =>
        issues.create(ctx, { projectId: tenant.projectId, title }),
      );
      return issue.id;
    },
    async deliveries(subscriptionId) {
      const all: WebhookDelivery[] = [];
      for (const tenant of [main, other]) {
        const subs = await storage.transaction((tx) =>
          tx.webhooks.list({ accountId: tenant.accountId, limit: 1000 }),
        );
        for (const sub of subs.rows) {
          if (subscriptionId !== undefined && sub.id !== subscriptionId) continue;
          const page = await storage.transaction((tx) =>
            tx.deliveries.list({ accountId: tenant.accountId, subscriptionId: sub.id, limit: 100_000 }),
          );
          all.push(...page.rows);
        }
      }
      return all.sort((a, b) =>
        a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt < b.createdAt ? -1 : 1,
      );
    },
    subscription(id, tenant = main) {
      return storage.transaction((tx) => tx.webhooks.get(tenant.accountId, id));
    },
    async close() {
      await tracker.close();
    },
  };
}
