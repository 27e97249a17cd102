import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, type Storage, type Tracker, tenancy } from '../../src/core/index.js';
import { fakeClock, seedWorkspace } from '../http/harness.js';
import { tempDir } from '../support/adapters.js';
import { dropSchema, freshSchema, testDatabaseUrl } from '../support/postgres.js';

/** The JSON-RPC request a bare client (no SDK) opens an MCP session with. */
export const initializeRequest = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

/** A database that several processes (or several storages of one process) can open. */
export interface SharedDatabase {
  name: 'sqlite' | 'postgres';
  /** What `--db` takes: a file, or a postgres:// URL with its `schema`. */
  target: string;
  /** A new storage on it: a connection (a pool) of its own, as another process would have. */
  open(): Storage;
  /** Removes the file or drops the schema. */
  destroy(): Promise<void>;
}

function sqliteDatabase(): SharedDatabase {
  const dir = tempDir();
  const filename = join(dir, 'tracker.db');
  return {
    name: 'sqlite',
    target: filename,
    open: () => sqliteStorage({ filename }),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresDatabase(url: string): SharedDatabase {
  const schema = freshSchema();
  const target = new URL(url);
  target.searchParams.set('schema', schema);
  return {
    name: 'postgres',
    target: target.toString(),
    open: () => postgresStorage({ connectionString: url, schema, poolMax: 3 }),
    destroy: () => dropSchema(schema),
  };
}

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names a server. */
export const sharedDatabases: readonly { name: string; make(): SharedDatabase }[] = [
  { name: 'sqlite', make: sqliteDatabase },
  ...(testDatabaseUrl ? [{ name: 'postgres', make: () => postgresDatabase(testDatabaseUrl as string) }] : []),
];

/** The workspace the MCP tests work in: an admin (read_write), the admin's read token, a member. */
export interface McpWorld {
  accountId: string;
  workspaceId: string;
  projectId: string;
  admin: string;
  read: string;
  member: { id: string; plain: string };
}

/** Seeds a workspace "acme" (project APO) on the storage, with the tokens the tests use. */
export async function seedMcpWorld(tracker: Tracker, storage: Storage): Promise<McpWorld> {
  const now = tracker.clock.now();
  const ws = await seedWorkspace(tracker, storage, tracker.ids, now, 'acme', 'admin@acme.test');
  const read = await storage.transaction((tx) =>
    tenancy.issueToken(
      { tx, ids: tracker.ids, now },
      { workspaceId: ws.workspaceId, userId: ws.adminUserId, name: 'read', scope: 'read' },
    ),
  );
  const member = await storage.transaction(async (tx) => {
    const { user } = await tenancy.addMember(
      { tx, ids: tracker.ids, now },
      { workspaceId: ws.workspaceId, email: 'member@acme.test', role: 'member' },
    );
    return tenancy.issueToken(
      { tx, ids: tracker.ids, now },
      { workspaceId: ws.workspaceId, userId: user.id, name: 'member', scope: 'read_write' },
    );
  });
  return {
    accountId: ws.accountId,
    workspaceId: ws.workspaceId,
    projectId: ws.projectId,
    admin: ws.adminToken,
    read: read.plain,
    member: { id: member.token.id, plain: member.plain },
  };
}

/** A tracker without HTTP on a storage of its own: "another process" writing to the database. */
export function otherProcess(database: SharedDatabase): Tracker {
  return createTracker({ storage: database.open(), clock: fakeClock(Date.now()), rateLimit: false });
}

/** Sends one API request through a tracker's pipeline and returns the status and parsed body. */
export async function apiCall(
  tracker: Tracker,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
): Promise<{ status: number; headers: Record<string, string>; json: any }> {
  const answer = await tracker.handle({
    method,
    path: `${tracker.basePath}${path}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body ?? '').toString();
  return { status: answer.status, headers: answer.headers, json: text === '' ? undefined : JSON.parse(text) };
}

/** The resource-updated notifications a client receives, and a way to wait for one. */
export function resourceUpdates(client: Client): { next(uri: string): Promise<void> } {
  const seen: string[] = [];
  const waiting: { uri: string; resolve(): void }[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    const uri = notification.params.uri;
    const waiter = waiting.findIndex((w) => w.uri === uri);
    if (waiter === -1) seen.push(uri);
    else waiting.splice(waiter, 1)[0]?.resolve();
  });
  return {
    next(uri) {
      const at = seen.indexOf(uri);
      if (at !== -1) {
        seen.splice(at, 1);
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push({ uri, resolve }));
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export type ToolAnswer = { isError?: boolean; structuredContent?: any; content: any; _meta?: any };
