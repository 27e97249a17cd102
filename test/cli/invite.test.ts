import { describe, expect, it } from 'vitest';
import { openInvite } from '../../src/core/tenancy/invites.js';
import { hashPassword } from '../../src/core/tenancy/password.js';
import { memoryCli } from './memory-io.js';

const db = ['--db', 'tracker.db'];

describe('outcome-tracker users invite', () => {
  it('adds the user and prints a one-time link for them to set a password', async () => {
    const cli = memoryCli();
    expect(
      (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...db])).code,
    ).toBe(0);
    const args = [
      'users',
      'invite',
      '--workspace',
      'acme',
      '--email',
      'bo@acme.test',
      '--url',
      'https://t.example',
    ];
    const result = await cli.run([...args, ...db, '--json']);
    expect(result.stderr).toEqual([]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout[0] ?? '');
    expect(printed).toEqual({
      userId: expect.stringMatching(/^usr_/),
      email: 'bo@acme.test',
      link: expect.stringMatching(/^https:\/\/t\.example\/invite\/[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    const storage = cli.storage('tracker.db');
    const token = printed.link.split('/invite/')[1];
    const user = await storage.transaction((tx) => openInvite(tx, token, Date.now()));
    expect(user?.email).toBe('bo@acme.test');
    const listed = await cli.run(['users', 'list', '--workspace', 'acme', ...db, '--json']);
    expect(JSON.parse(listed.stdout[0] ?? '').data).toContainEqual(
      expect.objectContaining({ email: 'bo@acme.test', role: 'member' }),
    );
  });

  it('refuses a user who already has a password (exit 1), and a malformed --url (exit 2)', async () => {
    const cli = memoryCli();
    await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', ...db]);
    const storage = cli.storage('tracker.db');
    const passwordHash = await hashPassword('a long password');
    await storage.transaction(async (tx) => {
      const user = await tx.tenancy.getUserByEmail('ada@acme.test');
      if (user) await tx.tenancy.updateUser({ ...user, passwordHash });
    });
    const refused = await cli.run([
      'users',
      'invite',
      '--workspace',
      'acme',
      '--email',
      'ada@acme.test',
      ...db,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toEqual([
      'outcome-tracker users invite: ada@acme.test already has a password: they sign in with it',
    ]);
    const badUrl = await cli.run([
      'users',
      'invite',
      '--workspace',
      'acme',
      '--email',
      'x@acme.test',
      '--url',
      'ftp://x',
      ...db,
    ]);
    expect(badUrl.code).toBe(2);
  });
});
