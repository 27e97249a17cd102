import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, projects, tenancy } from '../../src/core/index.js';
import { dropSchema, freshSchema, testDatabaseUrl } from '../support/postgres.js';

/**
 * A TCP proxy to the test's PostgreSQL that a test can cut (every connection closed, new ones
 * refused: the server gone) and restore on the same port (the server back).
 */
async function cuttableProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(Number(target.port || 5432), target.hostname || '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = ((server as Server).address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      for (const s of sockets) s.destroy();
      await closing;
      server = null;
    },
    restore: listen,
    close: async function close() {
      await this.cut();
    },
  };
}

describe.skipIf(!testDatabaseUrl)('PostgreSQL unreachable: 503 with Retry-After, then recovered', () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  it('answers 503 service_unavailable with Retry-After while the server is away, and works again once it is back', async () => {
    const target = new URL(testDatabaseUrl ?? '');
    const proxy = await cuttableProxy(target);
    const schema = freshSchema();
    schemas.push(schema);
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const storage = postgresStorage({ connectionString: url.toString(), schema, poolMax: 2 });
    try {
      await storage.ready();
      const tracker = createTracker({ storage, rateLimit: false });
      const { token } = await storage.transaction((tx) =>
        tenancy.initWorkspace(
          { tx, ids: tracker.ids, now: Date.now() },
          { slug: 'away', adminEmail: 'away@example.com' },
        ),
      );
      const project = await tracker.run({ workspaceSlug: 'away' }, (ctx) =>
        projects.create(ctx, { name: 'Away' }),
      );
      const call = (method: string, path: string, body?: unknown) =>
        tracker.handle({
          method,
          path: `/api/v1${path}`,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(method === 'POST' ? { 'idempotency-key': key } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const key = randomUUID();

      await proxy.cut();
      for (const [method, path, body] of [
        ['GET', `/projects/${project.id}`, undefined],
        ['POST', '/issues', { projectId: project.id, title: 'While away' }],
      ] as const) {
        const answer = await call(method, path, body);
        expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(503);
        expect(answer.headers['Retry-After'] ?? answer.headers['retry-after']).toBe('1');
        expect(JSON.parse(String(answer.body)).error).toBe('service_unavailable');
      }

      await proxy.restore();
      const created = await call('POST', '/issues', { projectId: project.id, title: 'While away' });
      expect(created.status, String(created.body)).toBe(201);
      expect(JSON.parse(String(created.body)).number).toBe(1);
    } finally {
      await storage.close();
      await proxy.close();
    }
  });
});
