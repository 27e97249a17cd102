import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/** The built CLI: `npm test` builds before vitest runs. */
export const cliPath = resolve('dist/cli/main.js');

export function assertBuilt(): void {
  if (!existsSync(cliPath))
    throw new Error(`${cliPath} is missing: build first (npx tsc -p tsconfig.build.json)`);
}

/** A fresh directory for a test's database. */
export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'ot-cli-'));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The CLI's script, when not this checkout's dist/cli/main.js. */
  bin?: string;
}

/**
 * The environment a CLI child gets: ours, without the variables the CLI reads unless given (npm's
 * among them: run through npm, the CLI's hints say `npx outcome-tracker`).
 */
function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OUTCOME_TRACKER_DB: undefined,
    PORT: undefined,
    npm_command: undefined,
    npm_lifecycle_event: undefined,
    ...extra,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

/** Runs `node dist/cli/main.js …` to completion. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [options.bin ?? cliPath, ...args],
      { env: childEnv(options.env), cwd: options.cwd ?? process.cwd() },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/** Runs a command with `--json` that must succeed, and returns the one object it printed. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
export async function runJson(args: readonly string[], options: RunOptions = {}): Promise<any> {
  const result = await runCli([...args, '--json'], options);
  if (result.code !== 0) throw new Error(`${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line of JSON, got:\n${result.stdout}`);
  return JSON.parse(lines[0] ?? '');
}

/** A free TCP port on 127.0.0.1 (free when asked; the test uses it at once). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

/** The lines a stream has printed so far, and a way to wait for one. */
export interface LineLog {
  lines: string[];
  /** Resolves with the first line that matches, waiting for it if need be. */
  waitFor(match: (line: string) => boolean): Promise<string>;
}

/** Collects a child's stream line by line; waiting for a line fails once the child has exited. */
function lineLog(stream: NodeJS.ReadableStream, name: string, exited: Promise<number | null>): LineLog {
  const lines: string[] = [];
  const waiters: { match: (line: string) => boolean; done: (line: string) => void }[] = [];
  createInterface({ input: stream }).on('line', (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.match(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.done(line);
    }
  });
  const waitFor = (match: (line: string) => boolean) => {
    const seen = lines.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((done, fail) => {
      waiters.push({ match, done });
      void exited.then((code) =>
        fail(new Error(`serve exited (${code}) before printing the line on ${name}:\n${lines.join('\n')}`)),
      );
    });
  };
  return { lines, waitFor };
}

/** A running `outcome-tracker serve` child and what it has printed so far. */
export interface Served {
  child: ChildProcess;
  /** Every stdout line so far: the startup. */
  lines: string[];
  /** Every stderr line so far: the request log and the shutdown. */
  logLines: string[];
  stderr: () => string;
  /** Resolves with the first stdout line that matches, waiting for it if need be. */
  waitForLine(match: (line: string) => boolean): Promise<string>;
  /** Resolves with the first stderr line that matches, waiting for it if need be. */
  waitForLogLine(match: (line: string) => boolean): Promise<string>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `outcome-tracker serve` with the given arguments. */
export function startServe(args: readonly string[], options: RunOptions = {}): Served {
  const child = spawn(process.execPath, [cliPath, 'serve', ...args], {
    env: childEnv(options.env),
    cwd: options.cwd ?? process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // 'close', not 'exit': by then every line the child wrote has been read.
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const out = lineLog(child.stdout as NodeJS.ReadableStream, 'stdout', exited);
  const err = lineLog(child.stderr as NodeJS.ReadableStream, 'stderr', exited);
  return {
    child,
    lines: out.lines,
    logLines: err.lines,
    stderr: () => err.lines.join('\n'),
    waitForLine: out.waitFor,
    waitForLogLine: err.waitFor,
    exited,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The startup object `serve --json` prints first. */
export interface Startup {
  url: string;
  apiUrl: string;
  docsUrl: string;
  openApiUrl: string;
  signInUrl: string;
  /** The admin page of the workspace a fresh database got; null otherwise. */
  adminUrl: string | null;
  server: string;
  db: string;
  init: {
    accountId: string;
    workspaceId: string;
    workspaceSlug: string;
    userId: string;
    token: string;
  } | null;
}

/** Starts `serve --json --port 0` and waits for its startup line. */
export async function startServeJson(args: readonly string[], options: RunOptions = {}) {
  const served = startServe(['--port', '0', '--json', ...args], options);
  const startup = JSON.parse(await served.waitForLine((line) => line.startsWith('{"url"'))) as Startup;
  return { ...served, startup };
}
