import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { exampleSkipReason } from '../support/examples.js';

/** Why the Next.js recipe cannot run here, or null when it can. */
export const nextSkipReason: string | null = exampleSkipReason('next', ['next', 'react', 'react-dom']);

export interface NextApp {
  origin: string;
  /** Everything `next dev` printed, for a failure message. */
  output(): string;
  close(): Promise<void>;
}

/**
 * The app in examples/next, copied into a fresh folder inside it (so `next` and `react` resolve
 * from the example's node_modules) with `outcome-tracker` installed as this checkout's package.json
 * and build, served by `next dev` on `port`. Resolves once the server says it is ready.
 */
export async function startNextApp(port: number, env: Record<string, string>): Promise<NextApp> {
  const example = resolve('examples/next');
  const dir = mkdtempSync(join(example, '.run-'));
  cpSync(join(example, 'app'), join(dir, 'app'), { recursive: true });
  copyFileSync(join(example, 'next.config.mjs'), join(dir, 'next.config.mjs'));
  // Installed as npm would: its package.json and its build. (A link to the whole checkout would
  // put the app inside its own dependency: a directory loop for anything that walks the tree.)
  const installed = join(dir, 'node_modules', 'outcome-tracker');
  mkdirSync(installed, { recursive: true });
  copyFileSync(resolve('package.json'), join(installed, 'package.json'));
  symlinkSync(resolve('dist'), join(installed, 'dist'), 'dir');
  // The app imports the package as installed, that is the build: `npm test` builds first.
  if (!existsSync(resolve('dist/core/index.js'))) throw new Error('dist/ is missing: npm run build first');
  const bin = join(example, 'node_modules/next/dist/bin/next');
  if (!existsSync(bin)) throw new Error(`${bin} is missing`);

  const child: ChildProcess = spawn(
    process.execPath,
    [bin, 'dev', '--port', String(port), '--hostname', '127.0.0.1'],
    {
      cwd: dir,
      // Its own process group: next dev starts a server process of its own, and both are stopped together.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'development' },
    },
  );
  const lines: string[] = [];
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => lines.push(line));
  const ready = new Promise<void>((done, fail) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      lines.push(line);
      if (/Ready in/.test(line)) done();
    });
    void exited.then(() => fail(new Error(`next dev exited before it was ready:\n${lines.join('\n')}`)));
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid)
      process.kill(-child.pid, 'SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready;
  } catch (error) {
    await close();
    throw error;
  }
  return { origin: `http://127.0.0.1:${port}`, output: () => lines.join('\n'), close };
}
