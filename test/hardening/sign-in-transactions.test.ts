import { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import type { Storage } from '../../src/core/index.js';
import { FormClient, setPassword, testPassword } from '../admin/form-client.js';
import { startServer, type TestServer } from '../http/harness.js';
import { hashTestPassword } from '../support/password-cost.js';

/**
 * What the password check sees while it runs. `during` is started as the check starts and not
 * waited for: were the check inside a write transaction, a write started alongside could not
 * commit before the check ends (scrypt at N=2^17 takes hundreds of ms; the write, under one).
 */
const check = vi.hoisted(() => ({
  openAtStart: [] as number[],
  openAtEnd: [] as number[],
  /** Whether `during` had committed when the check ended. */
  duringDoneAtEnd: [] as boolean[],
  during: null as null | (() => Promise<void>),
  alongside: Promise.resolve(),
  open: (): number => 0,
}));

vi.mock('../../src/core/tenancy/password.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/core/tenancy/password.js')>();
  return {
    ...real,
    verifyPassword: async (password: string, stored: string) => {
      check.openAtStart.push(check.open());
      let done = false;
      check.alongside = (check.during?.() ?? Promise.resolve()).then(() => {
        done = true;
      });
      const matches = await real.verifyPassword(password, stored);
      check.openAtEnd.push(check.open());
      check.duringDoneAtEnd.push(done);
      return matches;
    },
  };
});

/** A storage that counts the transactions whose callbacks are running. */
function countingStorage(inner: Storage): { storage: Storage; open: () => number; modes: string[] } {
  let open = 0;
  const modes: string[] = [];
  const storage: Storage = {
    ...inner,
    transaction: (fn, options) =>
      inner.transaction(async (tx) => {
        modes.push(options?.mode ?? 'write');
        open++;
        try {
          return await fn(tx);
        } finally {
          open--;
        }
      }, options),
  };
  return { storage, open: () => open, modes };
}

/** A hash as the previous release made them (scrypt N=2^14): signing in upgrades it. */
function oldHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

const storedHash = (server: TestServer) =>
  server.storage.transaction(
    async (tx) => (await tx.tenancy.getUserByEmail('admin@acme.test'))?.passwordHash,
  );

describe('admin sign-in and the storage transactions', () => {
  let server: TestServer;
  afterEach(async () => {
    check.openAtStart.length = 0;
    check.openAtEnd.length = 0;
    check.duringDoneAtEnd.length = 0;
    check.during = null;
    await server?.close();
  });

  async function start() {
    const counted = countingStorage(memoryStorage());
    check.open = counted.open;
    server = await startServer('node', { storage: counted.storage });
    return counted;
  }

  it('reads the user in a read transaction, then starts the session in one short write transaction', async () => {
    const { modes } = await start();
    await setPassword(server, 'admin@acme.test');
    modes.length = 0;
    const signedIn = await new FormClient(server.url).signIn('admin@acme.test', testPassword);
    expect(signedIn.status).toBe(303);
    // The form (GET), the post's look-up of the user, and after the check the session's write.
    expect(modes).toEqual(['read', 'read', 'write']);
    expect(check.openAtStart).toEqual([0]);
  });

  it('checks the password with no transaction open, and another write commits while it is checked', async () => {
    await start();
    await setPassword(server, 'admin@acme.test');
    check.during = async () => {
      await server.storage.transaction(async (tx) => {
        const member = await tx.tenancy.getUserByEmail('member@acme.test');
        if (member) await tx.tenancy.updateUser({ ...member, lastSignInAt: new Date().toISOString() });
      });
    };
    const signedIn = await new FormClient(server.url).signIn('admin@acme.test', testPassword);
    await check.alongside;
    expect(signedIn.status).toBe(303);
    expect(check.duringDoneAtEnd).toEqual([true]);
    expect(check.openAtStart).toEqual([0]);
    expect(check.openAtEnd).toEqual([0]);
  });

  it('lets a password set while the old one is being checked win: that sign-in fails and the new hash stays', async () => {
    await start();
    await server.storage.transaction(async (tx) => {
      const user = await tx.tenancy.getUserByEmail('admin@acme.test');
      if (!user) throw new Error('no admin');
      await tx.tenancy.updateUser({ ...user, passwordHash: oldHash(testPassword) });
    });
    const replaced = await hashTestPassword('a password set meanwhile');
    check.during = async () => {
      await server.storage.transaction(async (tx) => {
        const user = await tx.tenancy.getUserByEmail('admin@acme.test');
        if (user) await tx.tenancy.updateUser({ ...user, passwordHash: replaced });
      });
    };
    const attempt = await new FormClient(server.url).signIn('admin@acme.test', testPassword);
    await check.alongside;
    expect(check.duringDoneAtEnd).toEqual([true]);
    // The old password was right when the check began, but it no longer is: no session, and the
    // upgrade of the old hash did not overwrite the new one.
    expect(attempt.status).toBe(400);
    expect(attempt.setCookies.some((cookie) => cookie.startsWith('ot_session='))).toBe(false);
    expect(await storedHash(server)).toBe(replaced);
  });
});
