import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { createTracker, projects, type Storage, type StorageTx, tenancy } from '../../src/core/index.js';

/**
 * `query=project:<KEY>` looks each project key up: a query refused for its form must cost no
 * lookup, and one that is answered at most a lookup per key of its lists (50 a list). Before,
 * every key of every `project:` term was looked up first, about 330 in the longest query, and
 * the query was refused only then.
 */

/** A memory storage that counts the lookups of a project by its key. */
function countingLookups(): { storage: Storage; lookups: () => number } {
  const base = memoryStorage();
  let lookups = 0;
  const counted = (tx: StorageTx): StorageTx =>
    new Proxy(tx, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'collections') return value;
        return new Proxy(value, {
          get(collections, name, inner) {
            const store = Reflect.get(collections, name, inner);
            if (name !== 'projects') return store;
            return new Proxy(store, {
              get(projectStore, method, third) {
                const fn = Reflect.get(projectStore, method, third);
                if (method !== 'findOne' || typeof fn !== 'function') return fn;
                return (...args: unknown[]) => {
                  lookups++;
                  return fn.apply(projectStore, args);
                };
              },
            });
          },
        });
      },
    });
  const storage = new Proxy(base, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'transaction' || typeof value !== 'function') return value;
      return (fn: (tx: StorageTx) => Promise<unknown>, ...rest: unknown[]) =>
        value.call(target, (tx: StorageTx) => fn(counted(tx)), ...rest);
    },
  });
  return { storage, lookups: () => lookups };
}

describe('project keys in a query', () => {
  it('are looked up only for a query whose form is answered, once each', async () => {
    const { storage, lookups } = countingLookups();
    const tracker = createTracker({ storage, rateLimit: false });
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: Date.now() },
        { slug: 'keys', adminEmail: 'k@example.com' },
      ),
    );
    const project = await tracker.run({ workspaceSlug: 'keys' }, (ctx) =>
      projects.create(ctx, { name: 'Apollo', key: 'APO' }),
    );
    const list = async (query: string) => {
      const answer = await tracker.handle({
        method: 'GET',
        path: `/api/v1/issues?query=${encodeURIComponent(query)}`,
        headers: { authorization: `Bearer ${init.token}` },
      });
      return { status: answer.status, body: JSON.parse(String(answer.body)) as { detail?: string } };
    };
    // Distinct two-character keys (a key is a letter, then 1 to 9 letters or digits), `n` of
    // them from letter `first` on: 36 a letter.
    const alnum = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const keys = (first: number, n: number) =>
      Array.from({ length: n }, (_, i) => `${alnum[10 + first + Math.floor(i / 25)]}${alnum[i % 25]}`).join(
        ',',
      );

    // Six exclusion terms of 50 keys each: 300 keys, over the 50 a joined list takes (the
    // longest query the API reads, 1,000 characters, holds about 330 such keys).
    const tooMany = Array.from({ length: 6 }, (_, t) => `-project:${keys(2 * t, 50)}`).join(' ');
    expect(tooMany.length).toBeLessThanOrEqual(1000);
    const refused = await list(tooMany);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('at most 50 values in all');
    expect(lookups()).toBe(0);

    // A term refused after a long list of keys: nothing looked up.
    expect((await list(`-project:${keys(0, 40)} sort:colour`)).status).toBe(400);
    expect(lookups()).toBe(0);

    // Answered: each distinct key once, a key no project has refused by name.
    const answered = await list('project:apo,APO -project:ZED9');
    expect(answered.status).toBe(400);
    expect(answered.body.detail).toContain('no project has the key ZED9');
    expect(lookups()).toBe(2);
    expect((await list(`project:apo status:open`)).status).toBe(200);
    expect(lookups()).toBe(3);
    expect(project.key).toBe('APO');
    await tracker.close();
  });
});
