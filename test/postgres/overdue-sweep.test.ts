import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, issues, outcomes, projects, type Tracker, tenancy } from '../../src/core/index.js';
import { describeOnPostgres, requireDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

const day = 86_400_000;
const start = Date.parse('2026-03-01T12:00:00.000Z');

/**
 * The overdue sweep across processes: three storages (each its own pool, as three processes) on
 * one schema sweep at once, again and again; each item past its day is signalled exactly once.
 */
describeOnPostgres('the overdue sweep on one PostgreSQL', () => {
  const db = schemaPerTest();

  it('signals each item past its day exactly once among three storages sweeping together, and again after its day moves', async () => {
    let now = start;
    const made = Array.from({ length: 3 }, () =>
      postgresStorage({ connectionString: requireDatabaseUrl(), schema: db.name, poolMax: 3 }),
    );
    db.open.push(...made);
    await Promise.all(made.map((s) => s.ready()));
    const trackers = made.map((storage) =>
      createTracker({ storage, rateLimit: false, clock: { now: () => now } }),
    ) as [Tracker, Tracker, Tracker];
    const [a] = trackers;
    await (made[0] as PostgresStorage).transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: a.ids, now }, { slug: 'due', adminEmail: 'd@example.com' }),
    );
    const as = { workspaceSlug: 'due' };
    const project = await a.run(as, (ctx) => projects.create(ctx, { name: 'Due' }));
    const dueOn = '2026-03-02';
    const made40 = await a.run(as, async (ctx) => {
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        ids.push((await issues.create(ctx, { projectId: project.id, title: `Due ${i}`, dueOn })).id);
      }
      const outcome = await outcomes.create(ctx, { projectId: project.id, title: 'Late', dueDate: dueOn });
      return { issueIds: ids, outcomeId: outcome.id };
    });

    const sweepAll = async (rounds: number) => {
      const counts = await Promise.all(
        trackers.flatMap((tracker) => Array.from({ length: rounds }, () => tracker.sweepOverdue())),
      );
      return counts.reduce((sum, n) => sum + n, 0);
    };
    const overdueSignals = () =>
      (made[1] as PostgresStorage).transaction(async (tx) => {
        const { accountId } = await tenancy.workspaceBySlug(tx, 'due');
        return tx.signals.list({ accountId, types: ['issue.overdue', 'outcome.overdue'], limit: 500 });
      });

    expect(await sweepAll(2)).toBe(0); // the day has not passed
    now += day; // 2026-03-02: still the due day
    expect(await sweepAll(2)).toBe(0);
    now += day; // 2026-03-03
    expect(await sweepAll(3)).toBe(41);
    expect(await sweepAll(2)).toBe(0);
    const signals = await overdueSignals();
    expect(signals.map((s) => s.resource.id).sort()).toEqual([...made40.issueIds, made40.outcomeId].sort());

    const [moved] = made40.issueIds as [string];
    await a.run(as, (ctx) => issues.update(ctx, moved, { dueOn: '2026-03-04' }));
    now += day; // 2026-03-04: the new day has not passed
    expect(await sweepAll(2)).toBe(0);
    now += day;
    expect(await sweepAll(3)).toBe(1);
    expect((await overdueSignals()).filter((s) => s.resource.id === moved)).toHaveLength(2);
  });
});
