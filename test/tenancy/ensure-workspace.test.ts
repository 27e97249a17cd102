import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import {
  createTracker,
  ensureWorkspace,
  type Storage,
  type StorageTx,
  type Tracker,
} from '../../src/core/index.js';
import { tempDir } from '../cli/process.js';
import {
  describeOnPostgres,
  postgresSkipReason,
  requireDatabaseUrl,
  testDatabaseUrl,
} from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

const acme = { slug: 'acme', adminEmail: 'ada@acme.test' };

/** A storage that outlives a tracker: each call opens it again, as a restarted process would. */
interface Backend {
  name: string;
  skip: string | null;
  /** Opens the backend's storage (the same database every time within one test). */
  setup(): () => Promise<Storage>;
}

// Registered first, so run last: each test's trackers close before its schema is dropped.
const postgres = schemaPerTest();
const trackers: Tracker[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(trackers.splice(0).map((tracker) => tracker.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const backends: Backend[] = [
  {
    name: 'memory',
    skip: null,
    // The memory storage lives as long as its object: a "restart" is a new tracker over it.
    setup() {
      const storage = memoryStorage();
      return async () => storage;
    },
  },
  {
    name: 'sqlite',
    skip: null,
    setup() {
      const dir = tempDir();
      dirs.push(dir);
      return async () => sqliteStorage({ filename: join(dir, 'tracker.db') });
    },
  },
  {
    name: 'postgres',
    skip: testDatabaseUrl ? null : postgresSkipReason,
    setup() {
      const schema = postgres.name;
      return async () => {
        const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
        await storage.ready();
        return storage;
      };
    },
  },
];

async function start(open: () => Promise<Storage>): Promise<Tracker> {
  const tracker = createTracker({ storage: await open() });
  trackers.push(tracker);
  return tracker;
}

async function projectsStatus(tracker: Tracker, token: string): Promise<number> {
  const answer = await tracker.handle({
    method: 'GET',
    path: '/api/v1/projects',
    headers: { authorization: `Bearer ${token}` },
  });
  return answer.status;
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `ensureWorkspace on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      it('makes the workspace, its admin and a working token on the first run', async () => {
        const tracker = await start(backend.setup());
        const first = await ensureWorkspace(tracker, acme);
        expect(first).toMatchObject({ created: true, workspaceSlug: 'acme' });
        expect(first.userId).toMatch(/^usr_/);
        expect(await projectsStatus(tracker, first.token ?? '')).toBe(200);
      });

      it('answers the same workspace after a restart, makes nothing more, and the first token still works', async () => {
        const open = backend.setup();
        const before = await start(open);
        const first = await ensureWorkspace(before, acme);
        if (backend.name !== 'memory') await trackers.splice(trackers.indexOf(before), 1)[0]?.close();
        const after = await start(open);
        const again = await ensureWorkspace(after, acme);
        expect(again).toEqual({ ...first, created: false, token: null });
        expect(await projectsStatus(after, first.token ?? '')).toBe(200);
        // Only the first run's token exists: the workspace has one token, the admin one membership.
        const tokens = await after.storage.transaction((tx) => tx.tokens.list(first.workspaceId));
        expect(tokens).toHaveLength(1);
      });

      it('refuses a slug that is not one, as init does', async () => {
        const tracker = await start(backend.setup());
        await expect(ensureWorkspace(tracker, { ...acme, slug: 'Not A Slug' })).rejects.toMatchObject({
          status: 400,
        });
      });
    },
  );
}

describeOnPostgres('ensureWorkspace racing across processes on one PostgreSQL', () => {
  it('concurrent first runs: one makes the workspace, the others answer the same one', async () => {
    const open = backends[2]?.setup() as () => Promise<Storage>;
    const barrier = meetingOf(4);
    // Each its own pool, as separate processes have, all on one migrated schema; each has read
    // "no workspace acme" before any of them inserts it, so all but one lose the race.
    const racers = await Promise.all(
      Array.from({ length: 4 }, () => start(async () => afterFirstMiss(await open(), barrier))),
    );
    const answers = await Promise.all(racers.map((tracker) => ensureWorkspace(tracker, acme)));
    expect(answers.filter((answer) => answer.created)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.workspaceId)).size).toBe(1);
    expect(answers.filter((answer) => answer.token !== null)).toHaveLength(1);
    const winner = answers.find((answer) => answer.created);
    expect(await projectsStatus(racers[0] as Tracker, winner?.token ?? '')).toBe(200);
  });
});

/** A promise each of `count` callers awaits, resolved once all of them have arrived. */
function meetingOf(count: number): () => Promise<void> {
  let arrived = 0;
  let release = () => {};
  const met = new Promise<void>((done) => {
    release = done;
  });
  return () => {
    arrived += 1;
    if (arrived === count) release();
    return met;
  };
}

/** The storage, whose first lookup of a workspace by slug that finds none waits at `barrier`. */
function afterFirstMiss(storage: Storage, barrier: () => Promise<void>): Storage {
  let waited = false;
  const tenancyOf = (tx: StorageTx): StorageTx['tenancy'] =>
    new Proxy(tx.tenancy, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property !== 'getWorkspaceBySlug')
          return typeof value === 'function' ? value.bind(target) : value;
        return async (slug: string) => {
          const found = await target.getWorkspaceBySlug(slug);
          if (!found && !waited) {
            waited = true;
            await barrier();
          }
          return found;
        };
      },
    });
  return {
    ...storage,
    transaction: (fn, options) =>
      storage.transaction(
        (tx) =>
          fn(
            new Proxy(tx, {
              get(target, property) {
                if (property === 'tenancy') return tenancyOf(target);
                const value = Reflect.get(target, property);
                return typeof value === 'function' ? value.bind(target) : value;
              },
            }),
          ),
        options,
      ),
  };
}
