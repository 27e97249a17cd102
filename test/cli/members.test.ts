import { describe, expect, it } from 'vitest';
import { memoryCli } from './memory-io.js';

const db = ['--db', 'tracker.db'];
const json = (lines: string[]) => {
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] ?? '');
};

/** A workspace `acme` with its admin ada and a member bo, each with a token. */
async function acme() {
  const cli = memoryCli();
  const init = json(
    (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...db, '--json']))
      .stdout,
  );
  await cli.run([
    'users',
    'create',
    '--workspace',
    'acme',
    '--email',
    'bo@acme.test',
    '--role',
    'member',
    ...db,
  ]);
  const create = ['tokens', 'create', '--workspace', 'acme', '--user', 'bo@acme.test', '--name', 'bo'];
  const token = json((await cli.run([...create, '--scope', 'read_write', ...db, '--json'])).stdout);
  return { cli, init, token };
}

const memberKeys = [
  'createdAt',
  'email',
  'id',
  'lastActiveAt',
  'role',
  'tokenCount',
  'updatedAt',
  'userId',
  'version',
  'workspaceId',
  'workspaceSlug',
];

describe('outcome-tracker users list, set-role and remove', () => {
  it('users list --json prints { data } with every member of the workspace, as the API shows them', async () => {
    const { cli, init } = await acme();
    const result = await cli.run(['users', 'list', '--workspace', 'acme', ...db, '--json']);
    expect(result.code).toBe(0);
    const listed = json(result.stdout);
    expect(listed.data).toHaveLength(2);
    const ada = listed.data.find((m: { email: string }) => m.email === 'ada@acme.test');
    expect(Object.keys(ada).sort()).toEqual(memberKeys);
    expect(ada).toMatchObject({
      id: init.userId,
      userId: init.userId,
      role: 'admin',
      tokenCount: 1,
      version: 1,
      workspaceId: init.workspaceId,
      workspaceSlug: 'acme',
    });
    // Without --workspace: every workspace's members.
    await cli.run(['init', '--workspace', 'globex', '--admin-email', 'gus@globex.test', ...db]);
    const everywhere = json((await cli.run(['users', 'list', ...db, '--json'])).stdout);
    expect(everywhere.data.map((m: { workspaceSlug: string }) => m.workspaceSlug).sort()).toEqual([
      'acme',
      'acme',
      'globex',
    ]);
    const text = await cli.run(['users', 'list', '--workspace', 'acme', ...db]);
    expect(text.stdout[0]).toMatch(/^ID +WORKSPACE +EMAIL +ROLE +TOKENS +LAST ACTIVE +JOINED$/);
    expect(text.stdout).toHaveLength(3);
  });

  it('users set-role changes the role and prints the member; an unknown email fails with exit 1', async () => {
    const { cli } = await acme();
    const args = ['users', 'set-role', '--workspace', 'acme', '--email', 'bo@acme.test', '--role', 'viewer'];
    const result = await cli.run([...args, ...db, '--json']);
    expect(result.code).toBe(0);
    const member = json(result.stdout);
    expect(Object.keys(member).sort()).toEqual(memberKeys);
    expect(member).toMatchObject({ email: 'bo@acme.test', role: 'viewer', version: 2 });
    const text = await cli.run([...args.slice(0, -1), 'admin', ...db]);
    expect(text.stdout).toEqual(['bo@acme.test is now admin in workspace "acme".']);
    const unknown = await cli.run([
      ...['users', 'set-role', '--workspace', 'acme', '--email', 'zed@acme.test', '--role', 'admin'],
      ...db,
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr[0]).toContain('zed@acme.test is not a member of this workspace');
    const badRole = await cli.run([...args.slice(0, -1), 'owner', ...db]);
    expect(badRole.code).toBe(2);
  });

  it('refuses to demote or remove the last admin, with exit 1 and a message saying why', async () => {
    const { cli } = await acme();
    const demote = [
      'users',
      'set-role',
      '--workspace',
      'acme',
      '--email',
      'ada@acme.test',
      '--role',
      'member',
    ];
    const refused = await cli.run([...demote, ...db]);
    expect(refused.code).toBe(1);
    expect(refused.stderr[0]).toContain('last admin');
    const remove = await cli.run([
      'users',
      'remove',
      '--workspace',
      'acme',
      '--email',
      'ada@acme.test',
      ...db,
    ]);
    expect(remove.code).toBe(1);
    expect(remove.stderr[0]).toContain('last admin');
    const listed = json((await cli.run(['users', 'list', '--workspace', 'acme', ...db, '--json'])).stdout);
    expect(listed.data.find((m: { email: string }) => m.email === 'ada@acme.test').role).toBe('admin');
  });

  it('users remove takes the member out and revokes their tokens in the workspace', async () => {
    const { cli, token } = await acme();
    const result = await cli.run([
      ...['users', 'remove', '--workspace', 'acme', '--email', 'bo@acme.test'],
      ...db,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const removed = json(result.stdout);
    expect(Object.keys(removed).sort()).toEqual(memberKeys);
    expect(removed).toMatchObject({ email: 'bo@acme.test', role: 'member' });
    const listed = json((await cli.run(['users', 'list', '--workspace', 'acme', ...db, '--json'])).stdout);
    expect(listed.data.map((m: { email: string }) => m.email)).toEqual(['ada@acme.test']);
    const tokens = json((await cli.run(['tokens', 'list', '--workspace', 'acme', ...db, '--json'])).stdout);
    expect(tokens.data.find((t: { id: string }) => t.id === token.id).revokedAt).toEqual(expect.any(String));
    const again = await cli.run(['users', 'remove', '--workspace', 'acme', '--email', 'bo@acme.test', ...db]);
    expect(again.code).toBe(1);
  });

  it('tokens create --expires-in-days sets an expiry, adds expiresAt to --json, and refuses bad values', async () => {
    const { cli } = await acme();
    const create = ['tokens', 'create', '--workspace', 'acme', '--user', 'ada@acme.test', '--name', 'ci'];
    const before = Date.now();
    const result = await cli.run([...create, '--scope', 'read', '--expires-in-days', '30', ...db, '--json']);
    expect(result.code).toBe(0);
    const created = json(result.stdout);
    expect(Object.keys(created).sort()).toEqual(['expiresAt', 'id', 'name', 'scope', 'token']);
    const expires = Date.parse(created.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(30 * 24 * 3600 * 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 24 * 3600 * 1000);
    const listed = json((await cli.run(['tokens', 'list', '--workspace', 'acme', ...db, '--json'])).stdout);
    expect(listed.data.find((t: { id: string }) => t.id === created.id).expiresAt).toBe(created.expiresAt);
    for (const bad of ['0', '-3', '2.5', 'soon', '3651']) {
      const refused = await cli.run([...create, '--scope', 'read', `--expires-in-days=${bad}`, ...db]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.join('\n')).toContain('--expires-in-days');
    }
  });
});
