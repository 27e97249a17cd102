import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/tenancy/password.js';
import { memoryCli } from './memory-io.js';

const db = ['--db', 'tracker.db'];
const json = (lines: string[]) => {
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '');
};

async function initAcme(cli = memoryCli()) {
  const result = await cli.run([
    'init',
    '--workspace',
    'acme',
    '--admin-email',
    'ada@acme.test',
    ...db,
    '--json',
  ]);
  return { cli, result, init: json(result.stdout) };
}

describe('outcome-tracker, run in-process over memory storage', () => {
  it('init --json prints exactly accountId, workspaceId, workspaceSlug, userId and token', async () => {
    const { result, init } = await initAcme();
    expect(result.code).toBe(0);
    expect(Object.keys(init).sort()).toEqual([
      'accountId',
      'token',
      'userId',
      'workspaceId',
      'workspaceSlug',
    ]);
    expect(init.workspaceSlug).toBe('acme');
    expect(init.accountId).toMatch(/^acct_/);
    expect(init.workspaceId).toMatch(/^ws_/);
    expect(init.userId).toMatch(/^usr_/);
    expect(init.token).toMatch(/^cn_[0-9A-Za-z_]{32,}$/);
  });

  it('init for a slug that exists fails with exit 1 and a message naming the slug', async () => {
    const { cli } = await initAcme();
    const again = await cli.run(['init', '--workspace', 'acme', '--admin-email', 'bob@acme.test', ...db]);
    expect(again.code).toBe(1);
    expect(again.stdout).toEqual([]);
    expect(again.stderr).toHaveLength(1);
    expect(again.stderr[0]).toContain('"acme" already exists');
  });

  it('init stores the hash of the admin password read from stdin', async () => {
    const cli = memoryCli();
    const args = ['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--admin-password-stdin'];
    const result = await cli.run([...args, ...db], { stdin: 'correct horse battery\nignored' });
    expect(result.code).toBe(0);
    const user = await cli
      .storage('tracker.db')
      .transaction((tx) => tx.tenancy.getUserByEmail('ada@acme.test'));
    expect(user?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('correct horse battery', user?.passwordHash ?? '')).toBe(true);
  });

  it('an unknown flag is a usage error: exit 2, the flag named on stderr, nothing on stdout', async () => {
    const result = await memoryCli().run([
      'init',
      '--workspace',
      'acme',
      '--admin-email',
      'a@b.co',
      '--colour',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
    expect(result.stderr[0]).toBe('outcome-tracker init: unknown flag --colour');
    expect(result.stderr[1]).toMatch(/^Usage: outcome-tracker init --workspace <slug> --admin-email <email>/);
  });

  it('a missing required flag is a usage error naming the flag', async () => {
    const result = await memoryCli().run([
      'tokens',
      'create',
      '--workspace',
      'acme',
      '--user',
      'a@b.co',
      ...db,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toBe('outcome-tracker tokens create: missing required flag --name');
  });

  it('a value outside the allowed ones is a usage error listing them', async () => {
    const { cli } = await initAcme();
    const args = ['users', 'create', '--workspace', 'acme', '--email', 'x@acme.test', '--role', 'owner'];
    const result = await cli.run([...args, ...db]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toMatch(/--role: .*admin.*member.*viewer/);
  });

  it('an unknown command exits 2 and lists the commands', async () => {
    const result = await memoryCli().run(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr.join('\n')).toContain('unknown command "frobnicate"');
    expect(result.stderr.join('\n')).toContain('tokens create');
  });

  it('--help prints the usage of a command on stdout and exits 0', async () => {
    const result = await memoryCli().run(['serve', '--help']);
    expect(result.code).toBe(0);
    const text = result.stdout.join('\n');
    expect(text).toContain(
      'Usage: outcome-tracker serve [--port <port>] [--host <host>] [--server <node|hono>] [--rate-limit <n>] [--storage-time <ms>] [--trust-proxy] [--cors <origin,...>] [--base-path <path>] [--log-level <level>] [--shutdown-grace <seconds>] [--headers-timeout <ms>] [--request-timeout <ms>] [--keep-alive-timeout <ms>] [--send-timeout <ms>] [--max-connections <n>] [--max-connections-per-address <n>] [--allow-private-webhooks] [--mcp] [--toolsets <names>] [--db <file|url>] [--json]',
    );
    expect(text).toContain('--allow-private-webhooks');
    expect(text).toContain('--max-connections <n>');
  });

  it.each([
    [['--headers-timeout', '1e3'], '--headers-timeout'],
    [['--max-connections', '0'], '--max-connections'],
    [
      ['--headers-timeout', '90000', '--request-timeout', '60000'],
      'must not be longer than --request-timeout',
    ],
  ])('serve refuses %j as a usage error', async (args, message) => {
    const result = await memoryCli().run(['serve', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.join('\n')).toContain(message);
  });

  it('users create --json prints the user with its role and no password hash', async () => {
    const { cli, init } = await initAcme();
    const args = ['users', 'create', '--workspace', 'acme', '--email', 'bo@acme.test', '--role', 'member'];
    const result = await cli.run([...args, '--password-stdin', ...db, '--json'], { stdin: 'longenough1\n' });
    expect(result.code).toBe(0);
    const user = json(result.stdout);
    expect(user).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'bo@acme.test',
      workspaceId: init.workspaceId,
      role: 'member',
      passwordSet: true,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(user)).not.toContain('scrypt');
  });

  it('users create refuses a user who is already a member', async () => {
    const { cli } = await initAcme();
    const args = ['users', 'create', '--workspace', 'acme', '--email', 'ada@acme.test', '--role', 'viewer'];
    const result = await cli.run([...args, ...db]);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toContain('ada@acme.test is already a member of workspace "acme" (role admin)');
  });

  it('a password shorter than the minimum is refused and nothing is stored', async () => {
    const { cli } = await initAcme();
    const args = ['users', 'set-password', '--email', 'ada@acme.test', '--password-stdin', ...db];
    const result = await cli.run(args, { stdin: 'short\n' });
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toContain('at least 8');
    const user = await cli
      .storage('tracker.db')
      .transaction((tx) => tx.tenancy.getUserByEmail('ada@acme.test'));
    expect(user?.passwordHash).toBeNull();
  });

  it('users set-password needs --password-stdin, so a password never sits on the command line', async () => {
    const { cli } = await initAcme();
    const result = await cli.run(['users', 'set-password', '--email', 'ada@acme.test', ...db]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toContain('missing required flag --password-stdin');
  });

  it('users set-password stores a hash the password verifies against', async () => {
    const { cli } = await initAcme();
    const args = ['users', 'set-password', '--email', 'ada@acme.test', '--password-stdin', ...db, '--json'];
    const result = await cli.run(args, { stdin: 'new password here\n' });
    expect(result.code).toBe(0);
    expect(json(result.stdout)).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'ada@acme.test',
      passwordSet: true,
    });
    const user = await cli
      .storage('tracker.db')
      .transaction((tx) => tx.tenancy.getUserByEmail('ada@acme.test'));
    expect(await verifyPassword('new password here', user?.passwordHash ?? '')).toBe(true);
  });

  it('tokens create, list and revoke print the documented shapes and never a hash', async () => {
    const { cli, init } = await initAcme();
    const create = ['tokens', 'create', '--workspace', 'acme', '--user', 'ada@acme.test', '--name', 'ci'];
    const created = json((await cli.run([...create, '--scope', 'read', ...db, '--json'])).stdout);
    expect(Object.keys(created).sort()).toEqual(['id', 'name', 'scope', 'token']);
    expect(created).toMatchObject({ name: 'ci', scope: 'read', id: expect.stringMatching(/^tok_/) });

    const listed = json((await cli.run(['tokens', 'list', '--workspace', 'acme', ...db, '--json'])).stdout);
    expect(listed.data).toHaveLength(2);
    const ci = listed.data.find((t: { id: string }) => t.id === created.id);
    expect(ci).toEqual({
      id: created.id,
      workspaceId: init.workspaceId,
      name: 'ci',
      scope: 'read',
      userId: init.userId,
      lastFour: created.token.slice(-4),
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      expiresAt: null,
    });
    expect(JSON.stringify(listed)).not.toMatch(/hash|cn_/);

    // Without --workspace: every workspace's tokens, the same views.
    const everywhere = json((await cli.run(['tokens', 'list', ...db, '--json'])).stdout);
    expect(everywhere).toEqual(listed);
    await cli.run(['init', '--workspace', 'globex', '--admin-email', 'gus@globex.test', ...db]);
    const both = json((await cli.run(['tokens', 'list', ...db, '--json'])).stdout);
    type Listed = { id: string; workspaceId: string; createdAt: string };
    const rows: Listed[] = both.data;
    // Newest first across workspaces, not grouped by workspace: globex's token was made last.
    const newestFirst = [...rows].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
    );
    expect(rows).toEqual(newestFirst);
    expect(rows.map((t) => t.workspaceId === init.workspaceId)).toEqual([false, true, true]);
    const table = (await cli.run(['tokens', 'list', ...db])).stdout;
    expect(table[0]).toMatch(/^ID\s+WORKSPACE\s+NAME/);
    expect(table.slice(1).map((line) => line.split(/\s{2,}/)[1])).toEqual(['globex', 'acme', 'acme']);

    const revoked = json((await cli.run(['tokens', 'revoke', created.id, ...db, '--json'])).stdout);
    expect(revoked).toEqual({ ...ci, revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
  });

  it('tokens create refuses a user who is not a member of the workspace', async () => {
    const { cli } = await initAcme();
    const args = ['tokens', 'create', '--workspace', 'acme', '--user', 'nobody@acme.test', '--name', 'x'];
    const result = await cli.run([...args, '--scope', 'read', ...db]);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toContain('nobody@acme.test is not a member of workspace "acme"');
  });

  it('tokens revoke of an unknown id fails with exit 1', async () => {
    const { cli } = await initAcme();
    const result = await cli.run(['tokens', 'revoke', 'tok_missing', ...db]);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toBe('outcome-tracker tokens revoke: no token tok_missing');
  });

  it('projects create --json prints the project as the API answers it', async () => {
    const { cli } = await initAcme();
    const args = ['projects', 'create', '--workspace', 'acme', '--name', 'Apollo', '--description', 'Moon'];
    const project = json((await cli.run([...args, ...db, '--json'])).stdout);
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_/),
      name: 'Apollo',
      key: 'APO',
      description: 'Moon',
      createdAt: expect.any(String),
      updatedAt: project.createdAt,
      version: 1,
    });
  });

  it('projects create applies the API rules to the key', async () => {
    const { cli } = await initAcme();
    const args = ['projects', 'create', '--workspace', 'acme', '--name', 'Apollo', '--key', 'apo'];
    const result = await cli.run([...args, ...db]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toContain('--key: expected 2 to 10 upper-case letters');
  });

  it('commands other than init and serve refuse a database that does not exist', async () => {
    const result = await memoryCli().run(['tokens', 'list', '--workspace', 'acme', '--db', 'typo.db']);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toContain('no database at typo.db');
  });

  it('uses $OUTCOME_TRACKER_DB when --db is not given', async () => {
    const cli = memoryCli({ OUTCOME_TRACKER_DB: 'from-env.db' });
    await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test']);
    const workspace = await cli
      .storage('from-env.db')
      .transaction((tx) => tx.tenancy.getWorkspaceBySlug('acme'));
    expect(workspace?.slug).toBe('acme');
  });

  it('uses ./data/tracker.db when neither --db nor $OUTCOME_TRACKER_DB is given', async () => {
    const cli = memoryCli({});
    await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test']);
    const workspace = await cli
      .storage('./data/tracker.db')
      .transaction((tx) => tx.tenancy.getWorkspaceBySlug('acme'));
    expect(workspace?.slug).toBe('acme');
  });
});

describe('outcome-tracker help and version', () => {
  it('a group with --help or -h lists its commands on stdout and exits 0', async () => {
    for (const argv of [
      ['tokens', '--help'],
      ['tokens', '-h'],
      ['help', 'tokens'],
    ]) {
      const result = await memoryCli().run(argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stderr).toEqual([]);
      expect(result.stdout[0]).toBe('Commands of outcome-tracker tokens:');
      expect(result.stdout.slice(1).map((line) => line.trim().split(/\s{2,}/)[0])).toEqual([
        'outcome-tracker tokens create',
        'outcome-tracker tokens list',
        'outcome-tracker tokens revoke',
      ]);
    }
  });

  it('a group without a command is a usage error listing its commands on stderr', async () => {
    const result = await memoryCli().run(['users']);
    expect(result.code).toBe(2);
    expect(result.stdout).toEqual([]);
    expect(result.stderr[0]).toBe('outcome-tracker: unknown users command; one of:');
    expect(result.stderr.join('\n')).toContain('outcome-tracker users set-password');
  });

  it('help <command> and <command> -h print the same usage as <command> --help', async () => {
    const cli = memoryCli();
    const long = await cli.run(['users', 'create', '--help']);
    expect(long.code).toBe(0);
    expect(long.stdout[0]).toMatch(/^Usage: outcome-tracker users create --workspace <slug>/);
    expect(await cli.run(['help', 'users', 'create'])).toEqual(long);
    expect(await cli.run(['users', 'create', '-h'])).toEqual(long);
  });

  it('help and --help print the overview on stdout and exit 0; no arguments prints it on stderr and exits 2', async () => {
    const help = await memoryCli().run(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout.join('\n')).toContain('Usage: outcome-tracker <command> [flags]');
    expect(await memoryCli().run(['--help'])).toEqual(help);
    const none = await memoryCli().run([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toEqual([]);
    expect(none.stderr).toEqual(help.stdout);
  });

  it('--version prints the version of the package', async () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
    const result = await memoryCli().run(['--version']);
    expect(result).toEqual({ code: 0, stdout: [`outcome-tracker ${manifest.version}`], stderr: [] });
  });
});

describe('outcome-tracker flag values', () => {
  it('init with a malformed slug is a usage error and creates nothing', async () => {
    const cli = memoryCli();
    const result = await cli.run(['init', '--workspace', 'Bad Slug', '--admin-email', 'a@b.co', ...db]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toBe(
      'outcome-tracker init: --workspace: expected a slug: a-z, 0-9 and "-" inside, at most 63 characters',
    );
    expect(() => cli.storage('tracker.db')).toThrow();
  });

  it('serve refuses a port or rate limit that is not a whole number in range, empty ones included', async () => {
    const cases: [string[], string][] = [
      [['--port', 'abc'], '--port: expected a port number from 0 to 65535'],
      [['--port='], '--port: expected a port number from 0 to 65535'],
      [['--port', '65536'], '--port: expected a port number from 0 to 65535'],
      [['--port', '80.5'], '--port: expected a port number from 0 to 65535'],
      [['--rate-limit='], '--rate-limit: expected a whole number of requests per minute (0: no limit)'],
      [['--rate-limit=-5'], '--rate-limit: expected a whole number of requests per minute (0: no limit)'],
      [
        ['--rate-limit', '-5'],
        '--rate-limit needs a value; to give one that starts with "-", write --rate-limit=<value>',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await memoryCli().run(['serve', ...args, ...db]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr[0]).toBe(`outcome-tracker serve: ${message}`);
    }
  });

  it('serve refuses a $PORT that is not a port number as a usage error, exit 2', async () => {
    const listeners = process.listenerCount('SIGTERM');
    const result = await memoryCli({ PORT: 'http' }).run(['serve', ...db]);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toBe('outcome-tracker serve: PORT=http: expected a port number from 0 to 65535');
    // A serve that never started leaves no signal handler behind.
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
  });

  it('serve on a port in use fails with exit 1, opens no database and leaves no signal handler', async () => {
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    const { port } = taken.address() as AddressInfo;
    const listeners = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')];
    try {
      const cli = memoryCli();
      const result = await cli.run(['serve', '--port', String(port), ...db]);
      expect(result.code).toBe(1);
      expect(result.stdout).toEqual([]);
      expect(result.stderr).toEqual([
        `outcome-tracker serve: port ${port} on 127.0.0.1 is already in use (pass --port)`,
      ]);
      expect(() => cli.storage('tracker.db')).toThrow();
      expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT')]).toEqual(listeners);
    } finally {
      taken.close();
    }
  });
});
