import { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword, owaspScryptCost } from '../../src/core/tenancy/password.js';
import { startServer, type TestServer } from '../http/harness.js';
import { FormClient, testPassword } from './form-client.js';

/** A hash as the previous release made them: scrypt with N=2^14. */
function oldHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

const storedHash = (server: TestServer, email: string) =>
  server.storage.transaction(async (tx) => (await tx.tenancy.getUserByEmail(email))?.passwordHash);

describe('admin password hashes', () => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('verify an old, cheaper hash and upgrade it to N=2^17 at the next sign-in', async () => {
    server = await startServer('node', { passwordCost: owaspScryptCost });
    const old = oldHash(testPassword);
    await server.storage.transaction(async (tx) => {
      const user = await tx.tenancy.getUserByEmail('admin@acme.test');
      if (!user) throw new Error('no admin');
      await tx.tenancy.updateUser({ ...user, passwordHash: old });
    });
    expect((await new FormClient(server.url).signIn('admin@acme.test', 'wrong password')).status).toBe(400);
    expect(await storedHash(server, 'admin@acme.test')).toBe(old);

    const signedIn = await new FormClient(server.url).signIn('admin@acme.test', testPassword);
    expect(signedIn.status).toBe(303);
    const upgraded = await storedHash(server, 'admin@acme.test');
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    // The upgraded hash still signs in, and is not upgraded again.
    expect((await new FormClient(server.url).signIn('admin@acme.test', testPassword)).status).toBe(303);
    expect(await storedHash(server, 'admin@acme.test')).toBe(upgraded);
  });

  it('hash at the cost the area is given: a cheaper hash is upgraded to it, a costlier one kept', async () => {
    server = await startServer('node', { passwordCost: { N: 2 ** 12, r: 8, p: 1 } });
    const setHash = (passwordHash: string) =>
      server.storage.transaction(async (tx) => {
        const user = await tx.tenancy.getUserByEmail('admin@acme.test');
        if (!user) throw new Error('no admin');
        await tx.tenancy.updateUser({ ...user, passwordHash });
      });
    const strong = await hashPassword(testPassword);
    await setHash(strong);
    expect((await new FormClient(server.url).signIn('admin@acme.test', testPassword)).status).toBe(303);
    expect(await storedHash(server, 'admin@acme.test')).toBe(strong);

    await setHash(await hashPassword(testPassword, { N: 2 ** 11, r: 8, p: 1 }));
    expect((await new FormClient(server.url).signIn('admin@acme.test', testPassword)).status).toBe(303);
    expect(await storedHash(server, 'admin@acme.test')).toMatch(/^scrypt\$4096\$8\$1\$/);
  });
});
