import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cliPath, runCli, runJson, tempDir } from './process.js';

beforeAll(assertBuilt);

describe('outcome-tracker exit codes, as a child process', () => {
  it('init twice for one slug exits 1 with one line naming the slug', async () => {
    const db = join(tempDir(), 'tracker.db');
    const args = ['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', db];
    expect((await runCli(args)).code).toBe(0);
    const again = await runCli(args);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('outcome-tracker init: Workspace "acme" already exists.\n');
  });

  it('an unknown flag exits 2 with a usage error on stderr', async () => {
    const result = await runCli(['tokens', 'list', '--workspace', 'acme', '--verbose']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('outcome-tracker tokens list: unknown flag --verbose');
    expect(result.stderr).toContain('Usage: outcome-tracker tokens list [--workspace <slug>]');
  });

  it('a missing required flag exits 2', async () => {
    const result = await runCli(['init', '--workspace', 'acme']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing required flag --admin-email');
  });

  it('--help prints the commands and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const name of ['init', 'users create', 'tokens revoke', 'projects create', 'serve', 'openapi']) {
      expect(result.stdout).toContain(`  ${name} `);
    }
  });

  it('users set-password reads the first line of stdin', async () => {
    const db = join(tempDir(), 'tracker.db');
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', db]);
    const args = ['users', 'set-password', '--email', 'ada@acme.test', '--password-stdin', '--db', db];
    const result = await runJson(args, { stdin: 'a long enough password\nsecond line\n' });
    expect(result).toEqual({ id: expect.stringMatching(/^usr_/), email: 'ada@acme.test', passwordSet: true });
    const short = await runCli(args, { stdin: 'short\n' });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 8');
  });

  it('without --db or $OUTCOME_TRACKER_DB uses ./data/tracker.db, creating the directory', async () => {
    const cwd = tempDir();
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test'], { cwd });
    expect(existsSync(join(cwd, 'data', 'tracker.db'))).toBe(true);
    const listed = await runJson(['tokens', 'list', '--workspace', 'acme'], { cwd });
    expect(listed.data).toHaveLength(1);
  });

  it('projects create --json prints the project as the API answers it', async () => {
    const db = join(tempDir(), 'tracker.db');
    await runJson(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', db]);
    const project = await runJson([
      'projects',
      'create',
      '--workspace',
      'acme',
      '--name',
      'Apollo',
      '--key',
      'APL',
      '--db',
      db,
    ]);
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_/),
      name: 'Apollo',
      key: 'APL',
      description: null,
      createdAt: expect.any(String),
      updatedAt: project.createdAt,
      version: 1,
    });
  });

  it('openapi piped into a reader that stops early (| head) exits 0 without a stack trace', async () => {
    const child = spawn(process.execPath, [cliPath, 'openapi'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Like `head -c`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.once('close', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
