import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, type Storage, type Tracker, tenancy } from '../../src/core/index.js';
import { type FakeClock, fakeClock, hosts, listen, seedWorkspace } from '../http/harness.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';
import { openStream, type Stream } from './event-stream.js';

/**
 * Two storages on one database, as two server processes have: what one commits, the other
 * reads, and no change feed joins them (a stream in one learns of the other's writes only by
 * reading the database).
 */
interface StoragePair {
  a: Storage;
  b: Storage;
  /** After both trackers closed (each closes its own storage): removes the database. */
  drop(): Promise<void>;
}

const pairs: Record<string, () => Promise<StoragePair>> = {
  memory: async () => {
    const shared = memoryStorage();
    // One object is the whole database: the second tracker must not close it under the first.
    return {
      a: shared,
      b: { transaction: shared.transaction.bind(shared), close: async () => {} },
      drop: async () => {},
    };
  },
  sqlite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outcome-tracker-test-'));
    const filename = join(dir, 'tracker.db');
    const a = sqliteStorage({ filename });
    // The first opens (and migrates) the file before the second does.
    await a.transaction(async () => {}, { mode: 'read' });
    return {
      a,
      b: sqliteStorage({ filename }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  // Declared without a server too: its suites are then skipped, saying why (describeOnPostgres).
  postgres: async () => {
    const schema = freshSchema();
    const open = () => postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
    const a = open();
    await a.ready();
    const b = open();
    await b.ready();
    return { a, b, drop: () => dropSchema(schema) };
  },
};

const adapterNames = Object.keys(pairs);

for (const adapter of adapterNames) {
  const describeSuite = adapter === 'postgres' ? describeOnPostgres : describe;
  for (const host of hosts) {
    describeSuite(
      `an open signal stream obeys its token's authority (${host} host, ${adapter}, two storages on one database)`,
      () => {
        let pair: StoragePair;
        let clock: FakeClock;
        /** Serves the stream. */
        let a: Tracker;
        /** The other "process": revokes, removes, demotes and writes. */
        let b: Tracker;
        let close: () => Promise<void>;
        let url: string;
        /** The first admin's token (does the removing and demoting), and the workspace. */
        let ws: Awaited<ReturnType<typeof seedWorkspace>>;
        /** A second admin, whose token opens the stream. */
        let streamer: { userId: string; tokenId: string; token: string; memberId: string };
        const streams: Stream[] = [];

        beforeEach(async () => {
          pair = await (pairs[adapter] as () => Promise<StoragePair>)();
          clock = fakeClock();
          a = createTracker({ storage: pair.a, clock, rateLimit: false, onError: () => {} });
          b = createTracker({ storage: pair.b, clock, rateLimit: false, onError: () => {} });
          ws = await seedWorkspace(b, pair.b, b.ids, clock.now(), `acme-${adapter}`, 'admin@acme.test');
          const deps = () => ({ ids: b.ids, now: clock.now() });
          streamer = await pair.b.transaction(async (tx) => {
            const { user, membership } = await tenancy.addMember(
              { tx, ...deps() },
              { workspaceId: ws.workspaceId, email: 'second-admin@acme.test', role: 'admin' },
            );
            const issued = await tenancy.issueToken(
              { tx, ...deps() },
              {
                workspaceId: ws.workspaceId,
                userId: user.id,
                name: 'stream',
                scope: 'read',
                expiresInDays: 7,
              },
            );
            return {
              userId: user.id,
              tokenId: issued.token.id,
              token: issued.plain,
              memberId: membership.userId,
            };
          });
          const served = await listen(host, a);
          url = `http://127.0.0.1:${served.port}`;
          close = () =>
            new Promise<void>((resolve) => {
              served.server.close(() => resolve());
              served.server.closeAllConnections();
            });
        });
        afterEach(async () => {
          for (const s of streams.splice(0)) await s.disconnect();
          await close();
          await a.close();
          await b.close();
          await pair.drop();
        });

        /** A request to the other tracker, in process, as the first admin. */
        const viaB = async (method: string, path: string, body?: unknown) => {
          const response = await b.handle({
            method,
            path: `/api/v1${path}`,
            headers: {
              authorization: `Bearer ${ws.adminToken}`,
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
              ...(method === 'PATCH' ? { 'if-match': '*' } : {}),
            },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          return {
            status: response.status,
            json: response.body ? JSON.parse(String(response.body)) : undefined,
          };
        };
        const createIssue = async (title: string) => {
          const created = await viaB('POST', '/issues', { projectId: ws.projectId, title });
          expect(created.status).toBe(201);
          return created.json.id as string;
        };

        /**
         * Opens a stream with the second admin's token, shows it live (an issue made in the other
         * storage reaches it), then takes its authority away with `revoke`, writes one more issue
         * after that commit, and waits for the stream to end: it ends by itself, saying `why`, and
         * the later issue never reached it.
         */
        async function endsAfter(revoke: () => Promise<void>, why: RegExp) {
          const stream = await openStream(`${url}/api/v1/signals`, streamer.token);
          streams.push(stream);
          expect(stream.status).toBe(200);
          const before = await createIssue('seen while the token stood');
          await stream.waitFor((messages) => messages.some((m) => m.data?.includes(before)));

          await revoke();
          const after = await createIssue('committed after the revocation: confidential');
          await stream.ended();

          const last = stream.messages[stream.messages.length - 1];
          expect(last?.comment).toMatch(why);
          expect(stream.messages.some((m) => m.data?.includes(after))).toBe(false);
          expect(stream.messages.some((m) => m.data?.includes('confidential'))).toBe(false);
          // A request with the token is refused as the stream said.
          const again = await fetch(`${url}/api/v1/signals`, {
            headers: { authorization: `Bearer ${streamer.token}` },
          });
          expect(String(again.status)).toBe(last?.comment?.split(' ')[1]);
        }

        it('ends, saying so, once its token is revoked in the other storage', async () => {
          await endsAfter(
            () =>
              pair.b.transaction(async (tx) => {
                await tx.tokens.revoke(streamer.tokenId, new Date(clock.now()).toISOString());
              }),
            /^closed: 401 unauthorized: This API token has been revoked\./,
          );
        });

        it('ends, saying so, once its token expires', async () => {
          await endsAfter(
            async () => clock.advance(8 * 24 * 3600_000),
            /^closed: 401 unauthorized: This API token expired at /,
          );
        });

        it('ends, saying so, once its member is removed through the other server (which revokes their tokens)', async () => {
          await endsAfter(async () => {
            expect((await viaB('DELETE', `/members/${streamer.memberId}`)).status).toBe(204);
          }, /^closed: 401 unauthorized: This API token has been revoked\./);
        });

        it('ends, saying so, once its member is demoted below admin through the other server', async () => {
          await endsAfter(async () => {
            expect((await viaB('PATCH', `/members/${streamer.memberId}`, { role: 'member' })).status).toBe(
              200,
            );
          }, /^closed: 403 forbidden: Only workspace admins may do this\./);
        });
      },
    );
  }
}
