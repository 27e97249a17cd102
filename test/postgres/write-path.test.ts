import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, projects, type SignalEvent, tenancy } from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';
import { describeOnPostgres, requireDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

/**
 * The write path across processes: three storages (each its own pool, as separate processes
 * have) on one schema, many tenants creating at once.
 */
describeOnPostgres('PostgreSQL creates of many tenants over several storages', () => {
  const db = schemaPerTest();
  const { open } = db;

  /** Three storages on this test's schema, as three processes would be, each with a tracker. */
  async function threeStoragesOnOneSchema() {
    const storages = Array.from({ length: 3 }, () =>
      postgresStorage({ connectionString: requireDatabaseUrl(), schema: db.name, poolMax: 5 }),
    );
    open.push(...storages);
    await Promise.all(storages.map((s) => s.ready()));
    const trackers = storages.map((storage) => createTracker({ storage, rateLimit: false }));
    const [first] = trackers as [ReturnType<typeof createTracker>];
    return { storages, trackers, first };
  }

  it('answer 50 concurrent creates in each of 6 workspaces over 3 storages with 201, gap-free numbers, one signal each, and readers by sequence that skip none', async () => {
    const { storages, trackers, first } = await threeStoragesOnOneSchema();
    const workspaces = [];
    for (let w = 0; w < 6; w++) {
      const init = await (storages[0] as PostgresStorage).transaction((tx) =>
        tenancy.initWorkspace(
          { tx, ids: first.ids, now: Date.now() },
          { slug: `tenant-${w}`, adminEmail: `admin${w}@example.com` },
        ),
      );
      const project = await first.run({ workspaceSlug: `tenant-${w}` }, (ctx) =>
        projects.create(ctx, { name: `Tenant ${w}` }),
      );
      workspaces.push({ ...init, projectId: project.id });
    }
    const rerunsBefore = storages.map((s) => s.reruns());

    // A reader per account pages by sequence while the creates run, on the storage the
    // creates use least (any of them would do): what it collects is all it would ever see.
    let creating = true;
    const readers = workspaces.map(async ({ accountId }, w) => {
      const storage = storages[w % 3] as PostgresStorage;
      const seen: SignalEvent[] = [];
      let cursor = 0;
      const page = () =>
        storage.transaction((tx) => tx.signals.list({ accountId, afterSequence: cursor, limit: 100 }), {
          mode: 'read',
        });
      for (;;) {
        const stillCreating = creating;
        const events = await page();
        seen.push(...events);
        cursor = events.at(-1)?.sequence ?? cursor;
        if (!stillCreating && events.length === 0) return seen;
        if (events.length === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    });

    const answers = await Promise.all(
      workspaces.flatMap(({ token, projectId }, w) =>
        Array.from({ length: 50 }, (_, i) =>
          (trackers[(w + i) % 3] as ReturnType<typeof createTracker>).handle(
            createIssueRequest(token, { projectId, title: `Create ${i}` }),
          ),
        ),
      ),
    );
    creating = false;
    const seenByReader = await Promise.all(readers);

    expect(answers.map((a) => a.status)).toEqual(Array(300).fill(201));
    expect(storages.map((s, i) => s.reruns() - (rerunsBefore[i] as number))).toEqual([0, 0, 0]);
    const created = answers.map(
      (a) => JSON.parse(String(a.body)) as { id: string; projectId: string; number: number },
    );
    for (const [w, { projectId, accountId }] of workspaces.entries()) {
      const mine = created.filter((issue) => issue.projectId === projectId);
      expect(mine.map((issue) => issue.number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      const signals = await (storages[1] as PostgresStorage).transaction(
        (tx) => tx.signals.list({ accountId, types: ['issue.created'], limit: 1000 }),
        { mode: 'read' },
      );
      expect(signals.map((s) => s.resource.id).sort()).toEqual(mine.map((issue) => issue.id).sort());
      // The reader paged by sequence and saw every event the account has: none committed
      // behind its cursor.
      const all = await (storages[2] as PostgresStorage).transaction(
        (tx) => tx.signals.list({ accountId, limit: 1000 }),
        { mode: 'read' },
      );
      expect((seenByReader[w] as SignalEvent[]).map((s) => s.id)).toEqual(all.map((s) => s.id));
    }
    await Promise.all(trackers.map((t) => t.close()));
  });

  it('never let a reader by sequence skip a create of one account committed later, its creates spread over projects (no counter row in common)', async () => {
    const { storages, trackers, first } = await threeStoragesOnOneSchema();
    const init = await (storages[0] as PostgresStorage).transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: first.ids, now: Date.now() },
        { slug: 'spread', adminEmail: 'spread@example.com' },
      ),
    );
    // Creates of different projects take different counter rows: only the account's append
    // lock, taken with the number, keeps their sequences in commit order.
    const projectIds: string[] = [];
    for (let p = 0; p < 8; p++) {
      const project = await first.run({ workspaceSlug: 'spread' }, (ctx) =>
        projects.create(ctx, { name: `Spread ${p}` }),
      );
      projectIds.push(project.id);
    }

    let creating = true;
    const reader = (async () => {
      const seen: SignalEvent[] = [];
      let cursor = 0;
      for (;;) {
        const stillCreating = creating;
        const events = await (storages[2] as PostgresStorage).transaction(
          (tx) => tx.signals.list({ accountId: init.accountId, afterSequence: cursor, limit: 100 }),
          { mode: 'read' },
        );
        seen.push(...events);
        cursor = events.at(-1)?.sequence ?? cursor;
        if (!stillCreating && events.length === 0) return seen;
        if (events.length === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        (trackers[i % 3] as ReturnType<typeof createTracker>).handle(
          createIssueRequest(init.token, {
            projectId: projectIds[i % projectIds.length],
            title: `Spread ${i}`,
          }),
        ),
      ),
    );
    creating = false;
    const seen = await reader;

    expect(answers.map((a) => a.status)).toEqual(Array(400).fill(201));
    const all = await (storages[1] as PostgresStorage).transaction(
      (tx) => tx.signals.list({ accountId: init.accountId, limit: 1000 }),
      { mode: 'read' },
    );
    expect(all.filter((s) => s.type === 'issue.created')).toHaveLength(400);
    expect(seen.map((s) => s.id)).toEqual(all.map((s) => s.id));
    await Promise.all(trackers.map((t) => t.close()));
  });
});
