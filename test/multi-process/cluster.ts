import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { runCli, type Served, type Startup, startServeJson, tempDir } from '../cli/process.js';

/** A database several `serve` processes share: its `--db` value, and how to remove it afterwards. */
export interface SharedDatabase {
  kind: 'sqlite' | 'postgres';
  db: string;
  drop(): Promise<void>;
}

/** A fresh SQLite file in a temp directory. */
export function sqliteDatabase(): SharedDatabase {
  const dir = tempDir();
  return {
    kind: 'sqlite',
    db: join(dir, 'tracker.db'),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One running `serve` of a cluster. */
export interface Node extends Served {
  name: string;
  startup: Startup;
  url: string;
}

/** Several `serve` processes on one database. */
export interface Cluster {
  nodes: Node[];
  /** Every request log line (JSON) of every node, with the node's name. */
  requests(): { node: string; status: number; method: string; path: string }[];
  /** Every stderr line of every node that is not an info-level log line (errors, warnings, stray output). */
  otherLogLines(): string[];
  stop(): Promise<void>;
}

/**
 * Starts `count` `serve --json --port 0` processes on one database, all at once (so they race
 * to bootstrap a fresh one), each with `args`.
 */
export async function startCluster(
  database: SharedDatabase,
  count: number,
  args: string[] = [],
): Promise<Cluster> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startServeJson(['--db', database.db, ...args])),
  );
  const nodes: Node[] = [];
  const failures: string[] = [];
  for (const [i, result] of started.entries()) {
    if (result.status === 'fulfilled') {
      nodes.push({ ...result.value, name: String.fromCharCode(65 + i), url: result.value.startup.url });
    } else failures.push(String(result.reason));
  }
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  if (failures.length > 0) {
    await stop();
    throw new Error(
      `${failures.length} of ${count} serve processes failed to start:\n${failures.join('\n')}`,
    );
  }
  const parsed = (line: string) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      return null;
    }
  };
  return {
    nodes,
    requests: () =>
      nodes.flatMap((node) =>
        node.logLines.flatMap((line) => {
          const entry = parsed(line);
          if (!entry || typeof entry.status !== 'number') return [];
          return [
            { node: node.name, status: entry.status, method: String(entry.method), path: String(entry.path) },
          ];
        }),
      ),
    otherLogLines: () =>
      nodes.flatMap((node) =>
        node.logLines.filter((line) => {
          const entry = parsed(line);
          // Requests, startup, purges and shutdown log at info; anything else is worth a look.
          return entry?.level !== 'info';
        }),
      ),
    stop,
  };
}

/** Runs a CLI command against the shared database; it must succeed. */
export async function cli(database: SharedDatabase, args: string[], stdin?: string): Promise<string> {
  const result = await runCli([...args, '--db', database.db], stdin === undefined ? {} : { stdin });
  if (result.code !== 0) throw new Error(`${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** The socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes; // The process has exited.
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  return inodes;
}

/**
 * The node whose TCP connection has this local port (Linux: /proc/net/tcp{,6} and the node's file
 * descriptors): which process a receiver's request came from.
 */
export function nodeWithLocalPort(nodes: readonly Node[], port: number): Node | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      if (columns[1]?.endsWith(`:${hexPort}`) && columns[9]) inodes.add(columns[9]);
    }
  }
  for (const node of nodes) {
    if (node.child.pid === undefined || node.child.exitCode !== null) continue;
    for (const inode of socketInodes(node.child.pid)) if (inodes.has(inode)) return node;
  }
  return null;
}

/**
 * A fresh schema on the server TEST_DATABASE_URL names, as a `--db` URL with `?schema=`; dropped
 * by `drop()`. Fails (never skips) when the server cannot be reached.
 */
export async function postgresDatabase(serverUrl: string): Promise<SharedDatabase> {
  const schema = `ot_e2e_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  // Reaching the server now turns an unreachable one into a clear failure of the suite.
  await run('SELECT 1');
  const url = new URL(serverUrl);
  url.searchParams.set('schema', schema);
  return {
    kind: 'postgres',
    db: url.toString(),
    drop: () => run(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`),
  };
}
