import pg from 'pg';
import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { postgresStorageTimeStore } from '../../src/adapters/postgres/storage-time-store.js';
import { createTracker, projects, type SignalEvent, tenancy } from '../../src/core/index.js';
import { at, macrotask, sampleDelivery, sampleRow, sampleSignal } from '../conformance/fixtures.js';
import { createIssueRequest } from '../support/issue-request.js';
import { describeOnPostgres, requireDatabaseUrl, testDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

/**
 * PostgreSQL across processes: several storages (each its own pool, as separate processes
 * have) on one schema, racing each other for real.
 */
describeOnPostgres('several PostgreSQL storages on one schema', () => {
  const db = schemaPerTest();
  const { open } = db;
  const storages = async (count: number, maxAttempts?: number): Promise<PostgresStorage[]> => {
    const made = Array.from({ length: count }, () =>
      postgresStorage({
        connectionString: requireDatabaseUrl(),
        schema: db.name,
        poolMax: 3,
        ...(maxAttempts ? { maxAttempts } : {}),
      }),
    );
    open.push(...made);
    await Promise.all(made.map((s) => s.ready()));
    return made;
  };

  it('apply the migrations exactly once when they all start at once on an empty database', async () => {
    const started = await storages(4);
    const created = await Promise.all(started.map(async (s) => (await s.ready()).created));
    expect(created.filter(Boolean)).toHaveLength(1);
  });

  it('never claim one delivery twice among concurrent claimers', async () => {
    const [first, ...others] = await storages(4);
    await first?.transaction(async (t) => {
      for (let i = 0; i < 120; i++) {
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(i % 7) }));
      }
    });
    const claimers = [first, ...others].flatMap((s) =>
      Array.from({ length: 5 }, async () => {
        const mine: string[] = [];
        for (;;) {
          const batch = await (s as PostgresStorage).transaction((t) =>
            t.deliveries.claimDue({
              now: at(10),
              leaseId: `lease_${Math.random()}`,
              leaseUntil: at(100),
              limit: 3,
            }),
          );
          if (batch.length === 0) return mine;
          mine.push(...batch.map((d) => d.id));
        }
      }),
    );
    const ids = (await Promise.all(claimers)).flat();
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  });

  it('never let a reader paging by sequence skip an event of concurrent writers', async () => {
    const [reader, ...writers] = (await storages(4)) as [PostgresStorage, ...PostgresStorage[]];
    await reader.transaction((t) => t.tenancy.insertAccount({ id: 'acc_1', name: 'One', createdAt: at(0) }));
    const perWriter = 40;
    let writing = true;
    const seen: SignalEvent[] = [];
    const read = (async () => {
      let after = 0;
      for (;;) {
        const done = !writing;
        const page = await reader.transaction(
          (t) => t.signals.list({ accountId: 'acc_1', afterSequence: after, limit: 50 }),
          { mode: 'read' },
        );
        seen.push(...page);
        after = page.at(-1)?.sequence ?? after;
        if (done && page.length === 0) return;
      }
    })();
    await Promise.all(
      writers.flatMap((w) =>
        Array.from({ length: 3 }, async () => {
          for (let i = 0; i < perWriter / 2; i++) {
            await w.transaction(async (t) => {
              await t.signals.append(sampleSignal('acc_1'));
              await macrotask();
              await t.signals.append(sampleSignal('acc_1'));
            });
          }
        }),
      ),
    );
    writing = false;
    await read;
    const all = await reader.transaction((t) => t.signals.list({ accountId: 'acc_1', limit: 1000 }));
    expect(all).toHaveLength(writers.length * 3 * perWriter);
    expect(seen.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it('admit exactly the limit among concurrent rate-limit takes of one key', async () => {
    const started = await storages(3);
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        (started[i % 3] as PostgresStorage).rateLimits.take('token:tok_1', 1_000_000 + i, 100, 60_000),
      ),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    const later = await (started[0] as PostgresStorage).rateLimits.take(
      'token:tok_1',
      1_000_000 + 60_001,
      100,
      60_000,
    );
    expect(later.allowed).toBe(true);
  });

  it('settle concurrent storage-time charges of one account from several storages, losing none', async () => {
    const started = (await storages(3)) as PostgresStorage[];
    const share = 10_000;
    const now = 2_000_000;
    // 60 settles of 100 ms each, from three storages at once, with another account in each.
    const levels = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (started[i % 3] as PostgresStorage).storageTimes.settle(
          new Map([
            ['acc_1', 100],
            [`acc_other_${i}`, 1],
          ]),
          now,
          share,
          60_000,
          now,
        ),
      ),
    );
    // Run one after another, the settles saw every level from 9,900 down to 4,000 once each.
    const seen = levels.map((level) => level.get('acc_1')?.left).sort((a, b) => (b ?? 0) - (a ?? 0));
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => share - 100 * (i + 1)));
    expect(levels[7]?.get('acc_other_7')?.left).toBe(share - 1);
    // Refilled at 10,000 ms a minute: 30 s later it holds 4,000 + 5,000, less this charge.
    const later = await (started[1] as PostgresStorage).storageTimes.settle(
      new Map([['acc_1', 500]]),
      now + 30_000,
      share,
      60_000,
      now + 30_000,
    );
    expect(later.get('acc_1')?.left).toBeCloseTo(8_500, 6);
    // Never more than one share saved up, and a clock behind the bucket's refills nothing.
    const idle = await (started[2] as PostgresStorage).storageTimes.settle(
      new Map([['acc_1', 0]]),
      now + 3_600_000,
      share,
      60_000,
      now + 3_600_000,
    );
    expect(idle.get('acc_1')?.left).toBe(share);
    const behind = await (started[0] as PostgresStorage).storageTimes.settle(
      new Map([['acc_1', 1_000]]),
      now,
      share,
      60_000,
      now,
    );
    expect(behind.get('acc_1')?.left).toBe(share - 1_000);
    // The bucket's time stayed where it was: back at that time, nothing has refilled.
    const after = await (started[1] as PostgresStorage).storageTimes.settle(
      new Map([['acc_1', 0]]),
      now + 3_600_000,
      share,
      60_000,
      now + 3_600_000,
    );
    expect(after.get('acc_1')?.left).toBe(share - 1_000);
    // A settle also tells of the accounts any storage settled since the time it is given.
    const others = await (started[2] as PostgresStorage).storageTimes.settle(
      new Map([['acc_2', 10]]),
      now + 3_600_000,
      share,
      60_000,
      now + 3_600_000 - 2_000,
    );
    expect([...others.keys()].sort()).toEqual(['acc_1', 'acc_2']);
    expect(others.get('acc_1')).toEqual({ left: share - 1_000, atMs: now + 3_600_000 });
  });

  it('forget the storage-time buckets that have refilled to full, and only those', async () => {
    const [storage] = (await storages(1)) as PostgresStorage[];
    await storage?.ready();
    const pool = new pg.Pool({ connectionString: testDatabaseUrl, max: 2 });
    try {
      const table = `"${db.name}".storage_time_shares`;
      const store = postgresStorageTimeStore(pool, table, Promise.resolve(), 2);
      const now = 3_000_000;
      await store.settle(new Map([['acc_idle', 600]]), now, 1_000, 60_000, now - 2_000);
      // 30 s later acc_idle has refilled 500 of its 600: still not full, so the sweep of this
      // second settle keeps it.
      await store.settle(new Map([['acc_busy', 10]]), now + 30_000, 1_000, 60_000, now + 28_000);
      const accounts = async () =>
        (await pool.query<{ account_id: string }>(`SELECT account_id FROM ${table} ORDER BY 1`)).rows.map(
          (row) => row.account_id,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await accounts()).toEqual(['acc_busy', 'acc_idle']);
      // 40 s after that it is full again (acc_busy too), and neither was settled lately: the
      // next sweep deletes both.
      await store.settle(new Map([['acc_new', 1]]), now + 70_000, 1_000, 60_000, now + 68_000);
      await store.settle(new Map([['acc_new', 1]]), now + 70_000, 1_000, 60_000, now + 68_000);
      // A full bucket settled lately stays: it tells the others its account is active.
      await store.settle(new Map([['acc_full', 0]]), now + 70_000, 1_000, 60_000, now + 68_000);
      await store.settle(new Map([['acc_new', 0]]), now + 70_000, 1_000, 60_000, now + 68_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await accounts()).toEqual(['acc_full', 'acc_new']);
    } finally {
      await pool.end();
    }
  });

  it('lose no update when transactions of several storages read a row, wait, then write it', async () => {
    const started = await storages(3);
    const entry = sampleRow('timeEntries', 'wsp_1', { minutes: 0 });
    await started[0]?.transaction((t) => t.collections.timeEntries.insert(entry));
    await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        (started[i % 3] as PostgresStorage).transaction(async (t) => {
          const current = await t.collections.timeEntries.get('wsp_1', entry.id);
          if (!current) throw new Error('row vanished');
          await macrotask();
          await t.collections.timeEntries.update(
            { ...current, minutes: current.minutes + 1, version: current.version + 1 },
            current.version,
          );
        }),
      ),
    );
    const final = await started[1]?.transaction((t) => t.collections.timeEntries.get('wsp_1', entry.id));
    expect(final).toMatchObject({ minutes: 45, version: 46 });
  });

  it('create every issue of a burst of concurrent creates in one project, writers queuing on the project’s counter instead of failing', async () => {
    // Few runs allowed: writers that collided instead of queuing on the project's issue
    // counter would run out of them and answer 503 transient_conflict.
    const [first, second] = await storages(2, 4);
    const trackers = [first, second].map((storage) =>
      createTracker({ storage: storage as PostgresStorage, rateLimit: false }),
    );
    const [a, b] = trackers as [ReturnType<typeof createTracker>, ReturnType<typeof createTracker>];
    const init = await (first as PostgresStorage).transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: a.ids, now: Date.now() },
        { slug: 'burst', adminEmail: 'b@example.com' },
      ),
    );
    const project = await a.run({ workspaceSlug: 'burst' }, (ctx) => projects.create(ctx, { name: 'Burst' }));
    const create = (tracker: typeof a, i: number) =>
      tracker.handle(createIssueRequest(init.token, { projectId: project.id, title: `Burst ${i}` }));
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => create(i % 2 ? b : a, i)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(201));
    const numbers = answers.map((answer) => (JSON.parse(String(answer.body)) as { number: number }).number);
    expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('wake another storage’s listeners on a commit that appended events, and not on a rollback', async () => {
    const [writer, listener] = (await storages(2)) as [PostgresStorage, PostgresStorage];
    await writer.transaction(async (t) => {
      for (const id of ['acc_warm', 'acc_rolled_back', 'acc_committed', 'acc_queued']) {
        await t.tenancy.insertAccount({ id, name: id, createdAt: at(0) });
      }
    });
    const heard: string[] = [];
    const queued: (boolean | undefined)[] = [];
    let wake: () => void = () => {};
    const stop = listener.changes?.subscribe((accountId, change) => {
      heard.push(accountId);
      queued.push(change?.deliveriesQueued);
      wake();
    });
    try {
      // The LISTEN connection is made on the first subscription: wait until it hears a commit.
      const firstHeard = new Promise<void>((resolve) => {
        wake = resolve;
      });
      let listening = false;
      void firstHeard.then(() => {
        listening = true;
      });
      while (!listening) {
        await writer.transaction((t) => t.signals.append(sampleSignal('acc_warm')));
        await Promise.race([firstHeard, new Promise((resolve) => setTimeout(resolve, 50))]);
      }
      heard.length = 0;
      queued.length = 0;
      await expect(
        writer.transaction(async (t) => {
          await t.signals.append(sampleSignal('acc_rolled_back'));
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      const committed = new Promise<void>((resolve) => {
        wake = resolve;
      });
      await writer.transaction((t) => t.signals.append(sampleSignal('acc_committed')));
      await committed;
      // Notifications arrive in commit order: had the rollback notified, it would come first.
      expect(heard).toEqual(['acc_committed']);
      // It queued no deliveries, and says so: the listener's dispatcher may sleep on.
      expect(queued).toEqual([false]);
      const withDelivery = new Promise<void>((resolve) => {
        wake = resolve;
      });
      await writer.transaction(async (t) => {
        await t.signals.append(sampleSignal('acc_queued'));
        await t.deliveries.insert(sampleDelivery('acc_queued', 'whk_1', { nextAttemptAt: at(0) }));
      });
      await withDelivery;
      expect(heard).toEqual(['acc_committed', 'acc_queued']);
      expect(queued).toEqual([false, true]);
    } finally {
      stop?.();
    }
  });
});
