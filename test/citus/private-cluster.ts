import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../cli/process.js';
import { query } from './load.js';

/**
 * A Citus cluster of a test's own (a coordinator and two workers in a temp directory, on free
 * ports), for tests that stop a node: the shared cluster of TEST_CITUS_URL is other runs' too.
 * It uses the PostgreSQL binaries of TEST_CITUS_PG_BIN (default /usr/lib/postgresql/15/bin) with
 * the Citus extension installed in them (the vendor's install.sh); as root the servers run as the
 * `postgres` user, as initdb requires.
 */
const pgBin = process.env.TEST_CITUS_PG_BIN || '/usr/lib/postgresql/15/bin';
const citusLibrary = join(pgBin, '..', 'lib', 'citus.so');
const isRoot = process.getuid?.() === 0;

/** Why a private cluster cannot be started here, or null when it can. */
export function privateClusterSkipReason(): string | null {
  if (process.platform !== 'linux') return 'a private Citus cluster needs Linux';
  if (process.env.TEST_CITUS_PRIVATE === '0') return 'TEST_CITUS_PRIVATE=0';
  if (!existsSync(join(pgBin, 'pg_ctl'))) return `no PostgreSQL binaries in ${pgBin} (set TEST_CITUS_PG_BIN)`;
  if (!existsSync(citusLibrary))
    return `Citus is not installed for ${pgBin} (${citusLibrary} is missing; run the vendor's citus/install.sh)`;
  return null;
}

/** Runs a PostgreSQL binary (as `postgres` when we are root). */
function pgRun(binary: string, args: string[]): Promise<string> {
  const [file, argv] = isRoot
    ? ['runuser', ['-u', 'postgres', '--', join(pgBin, binary), ...args]]
    : [join(pgBin, binary), args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${binary} ${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

export interface PrivateCluster {
  /** The coordinator's URL of the cluster's database (`ot`). */
  url: string;
  /** The workers' ports, in the order they were added. */
  workers: readonly number[];
  /** Stops the node on `port` at once (`pg_ctl stop -m immediate`: a crash, as a lost machine). */
  stop(port: number): Promise<void>;
  /** Starts the node on `port` again, returning once it accepts connections. */
  start(port: number): Promise<void>;
  /** Stops every node and removes the directory. */
  destroy(): Promise<void>;
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'ot-citus-private-'));
  if (isRoot) chownSync(dir, ...postgresIds());
  const ports = [await freePort(), await freePort(), await freePort()];
  const dataOf = new Map(ports.map((port, i) => [port, join(dir, `n${i}`)]));
  const started = new Set<number>();
  const start = async (port: number) => {
    const data = dataOf.get(port) as string;
    await pgRun('pg_ctl', ['-D', data, '-l', join(data, 'log'), '-w', '-t', '120', 'start']);
    started.add(port);
  };
  const stop = async (port: number, mode = 'immediate') => {
    await pgRun('pg_ctl', ['-D', dataOf.get(port) as string, '-m', mode, '-w', 'stop']);
    started.delete(port);
  };
  const destroy = async () => {
    for (const port of [...started]) await stop(port, 'fast').catch(() => {});
    // TEST_CITUS_KEEP=1 keeps the directory (the nodes' logs) for a look after a failure.
    if (process.env.TEST_CITUS_KEEP === '1') console.error(`private cluster kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      ports.map(async (port) => {
        const data = dataOf.get(port) as string;
        await pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
        await appendFile(
          join(data, 'postgresql.conf'),
          `shared_preload_libraries = 'citus'\nport = ${port}\nlisten_addresses = '127.0.0.1'\n` +
            `unix_socket_directories = '${dir}'\nmax_connections = 200\nfsync = off\n`,
        );
        await start(port);
      }),
    );
    const base = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
    for (const port of ports) {
      await query(base(port, 'postgres'), 'CREATE DATABASE ot');
      await query(base(port, 'ot'), 'CREATE EXTENSION citus');
    }
    const [coordinator, ...workers] = ports as [number, number, number];
    const url = base(coordinator, 'ot');
    await query(url, "SELECT citus_set_coordinator_host('127.0.0.1', $1)", [coordinator]);
    for (const port of workers) await query(url, "SELECT citus_add_node('127.0.0.1', $1)", [port]);
    writeFileSync(join(dir, 'ports'), ports.join(' '));
    return { url, workers, stop: (port) => stop(port), start, destroy };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/** The uid and gid of the `postgres` user. */
function postgresIds(): [number, number] {
  const passwd = readFileSync('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user: as root, the servers run as postgres');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}
