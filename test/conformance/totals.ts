import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue, IssueStatus, ListQuery, Storage } from '../../src/core/index.js';
import { type AdapterUnderTest, runsOn } from '../support/adapters.js';
import { at, sampleRow } from './fixtures.js';

type Command =
  | {
      kind: 'insert';
      workspace: number;
      project: number;
      status: IssueStatus;
      assignee: number | null;
      n: number;
    }
  | { kind: 'update'; pick: number; status: IssueStatus; assignee: number | null; project: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'deleteWhere'; workspace: number; status: IssueStatus }
  | { kind: 'rolledBack'; workspace: number; pick: number }
  | {
      kind: 'insertThenChange';
      workspace: number;
      status: IssueStatus;
      changedTo: IssueStatus;
      remove: boolean;
    }
  | { kind: 'concurrent'; workspace: number; status: IssueStatus; n: number; failing: number };

const statuses: IssueStatus[] = ['open', 'in_progress', 'blocked', 'resolved', 'closed'];
const workspaces = ['wsp_t1', 'wsp_t2'];
const projectIds = ['prj_t1', 'prj_t2'];
const assignees = ['usr_t1', 'usr_t2'];
const status = fc.constantFrom(...statuses);
const assignee = fc.option(fc.integer({ min: 0, max: 1 }), { nil: null });

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      workspace: fc.integer({ min: 0, max: 1 }),
      project: fc.integer({ min: 0, max: 1 }),
      status,
      assignee,
      n: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      status,
      assignee,
      project: fc.integer({ min: 0, max: 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deleteWhere' as const),
      workspace: fc.integer({ min: 0, max: 1 }),
      status,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('rolledBack' as const),
      workspace: fc.integer({ min: 0, max: 1 }),
      pick: fc.nat(),
    }),
  },
);

const moreCommands: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('insertThenChange' as const),
    workspace: fc.integer({ min: 0, max: 1 }),
    status,
    changedTo: status,
    remove: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('concurrent' as const),
    workspace: fc.integer({ min: 0, max: 1 }),
    status,
    n: fc.integer({ min: 2, max: 6 }),
    failing: fc.nat(),
  }),
);

const anyCommand = fc.oneof({ weight: 4, arbitrary: command }, { weight: 1, arbitrary: moreCommands });

/** The total of `where` in `workspaceId` by the model. */
const modelTotal = (model: Map<string, Issue>, workspaceId: string, where: ListQuery<'issues'>['where']) =>
  [...model.values()].filter((row) => row.workspaceId === workspaceId && matches(row, where)).length;

/** Every filter a list may be asked for, single fields (null included) and combinations. */
function queries(workspaceId: string): ListQuery<'issues'>[] {
  const where: ListQuery<'issues'>['where'][] = [
    {},
    ...projectIds.map((projectId) => ({ projectId })),
    ...statuses.map((s) => ({ status: s })),
    { assigneeId: null },
    ...assignees.map((assigneeId) => ({ assigneeId })),
    { severity: 'high' },
    { outcomeId: null },
    { status: 'open', projectId: 'prj_t1' },
    { status: 'open', assigneeId: null },
    // Several filters: SQLite reads the index of the one that fewest rows match.
    { status: 'in_progress', severity: 'high' },
    { projectId: 'prj_t2', status: 'open', severity: 'high' },
    ...assignees.map((assigneeId) => ({ assigneeId, projectId: 'prj_t1' })),
  ];
  return where.map((w) => ({ workspaceId, where: w, limit: 1 }));
}

async function apply(storage: Storage, model: Map<string, Issue>, c: Command): Promise<void> {
  const existing = [...model.values()];
  const picked = existing.length > 0 && 'pick' in c ? existing[c.pick % existing.length] : undefined;
  if (c.kind === 'insert') {
    const rows = Array.from({ length: c.n }, () =>
      sampleRow(
        'issues',
        workspaces[c.workspace] as string,
        {
          projectId: projectIds[c.project] as string,
          status: c.status,
          assigneeId: c.assignee === null ? null : (assignees[c.assignee] as string),
        },
        at(model.size),
      ),
    );
    await storage.transaction(async (tx) => {
      for (const row of rows) await tx.collections.issues.insert(row);
    });
    for (const row of rows) model.set(row.id, row);
  } else if (c.kind === 'update' && picked) {
    const next = {
      ...picked,
      status: c.status,
      projectId: projectIds[c.project] as string,
      assigneeId: c.assignee === null ? null : (assignees[c.assignee] as string),
      version: picked.version + 1,
    };
    await storage.transaction((tx) => tx.collections.issues.update(next, picked.version));
    model.set(next.id, next);
  } else if (c.kind === 'delete' && picked) {
    await storage.transaction((tx) => tx.collections.issues.delete(picked.workspaceId, picked.id));
    model.delete(picked.id);
  } else if (c.kind === 'deleteWhere') {
    const workspaceId = workspaces[c.workspace] as string;
    await storage.transaction((tx) => tx.collections.issues.deleteWhere(workspaceId, { status: c.status }));
    for (const row of existing)
      if (row.workspaceId === workspaceId && row.status === c.status) model.delete(row.id);
  } else if (c.kind === 'rolledBack') {
    // Writes of every kind in a transaction that fails: the totals must not move.
    const failing = storage.transaction(async (tx) => {
      await tx.collections.issues.insert(
        sampleRow('issues', workspaces[c.workspace] as string, { status: 'blocked' }),
      );
      if (picked) {
        await tx.collections.issues.update(
          { ...picked, status: 'closed', version: picked.version + 1 },
          picked.version,
        );
        await tx.collections.issues.delete(picked.workspaceId, picked.id);
      }
      throw new Error('roll back');
    });
    await expect(failing).rejects.toThrow('roll back');
  } else if (c.kind === 'insertThenChange') {
    // A row inserted, changed and perhaps deleted in one transaction, its totals read inside it
    // (what an adapter holds back until the commit must count already) and after it.
    const workspaceId = workspaces[c.workspace] as string;
    const row = sampleRow('issues', workspaceId, { status: c.status }, at(model.size));
    const changed = { ...row, status: c.changedTo, version: row.version + 1 };
    const seen = await storage.transaction(async (tx) => {
      await tx.collections.issues.insert(row);
      await tx.collections.issues.update(changed, row.version);
      if (c.remove) await tx.collections.issues.delete(workspaceId, row.id);
      const totals: number[] = [];
      for (const s of [c.status, c.changedTo]) {
        totals.push(
          (await tx.collections.issues.list({ workspaceId, where: { status: s }, limit: 1 })).total,
        );
      }
      totals.push(await tx.collections.issues.count(workspaceId, {}));
      return totals;
    });
    if (!c.remove) model.set(changed.id, changed);
    expect(seen).toEqual([
      modelTotal(model, workspaceId, { status: c.status }),
      modelTotal(model, workspaceId, { status: c.changedTo }),
      modelTotal(model, workspaceId, {}),
    ]);
  } else if (c.kind === 'concurrent') {
    // Transactions queued together (SQLite commits them as one group), one of them failing after
    // its insert; each reads the total after its own insert.
    const workspaceId = workspaces[c.workspace] as string;
    const failing = c.failing % c.n;
    const rows = Array.from({ length: c.n }, (_, i) =>
      sampleRow('issues', workspaceId, { status: c.status }, at(model.size + i)),
    );
    const outcomes = await Promise.allSettled(
      rows.map((row, i) =>
        storage.transaction(async (tx) => {
          await tx.collections.issues.insert(row);
          const total = (
            await tx.collections.issues.list({ workspaceId, where: { status: c.status }, limit: 1 })
          ).total;
          if (i === failing) throw new Error('fails after its insert');
          return total;
        }),
      ),
    );
    const before = modelTotal(model, workspaceId, { status: c.status });
    rows.forEach((row, i) => {
      if (i !== failing) model.set(row.id, row);
    });
    // Each one that committed saw the rows committed before it and its own: as if they ran one
    // after another, in some order.
    const seen = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])).sort((a, b) => a - b);
    // Named with the totals, so that a failure says whether another transaction failed too, and why.
    const unexpected = outcomes.flatMap((o, i) =>
      o.status === 'rejected' && i !== failing ? [String((o.reason as Error)?.message ?? o.reason)] : [],
    );
    expect({ seen, unexpected }).toEqual({
      seen: Array.from({ length: c.n - 1 }, (_, k) => before + k + 1),
      unexpected: [],
    });
  }
}

const matches = (row: Issue, where: ListQuery<'issues'>['where']) =>
  Object.entries(where ?? {}).every(
    ([field, value]) => (row as unknown as Record<string, unknown>)[field] === value,
  );

/** `total` is exact for every filter after any sequence of writes, whatever the adapter keeps to answer it. */
export function totalTests(adapter: AdapterUnderTest): void {
  describe('list totals', () => {
    it('equal the number of matching rows after any sequence of inserts, updates, deletes and rollbacks', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(anyCommand, { minLength: 1, maxLength: 25 }), async (commands) => {
          const storage = await adapter.create();
          try {
            const model = new Map<string, Issue>();
            for (const c of commands) await apply(storage, model, c);
            for (const workspaceId of workspaces) {
              for (const query of queries(workspaceId)) {
                const expected = [...model.values()].filter(
                  (row) => row.workspaceId === workspaceId && matches(row, query.where),
                ).length;
                const { total } = await storage.transaction((tx) => tx.collections.issues.list(query));
                const counted = await storage.transaction((tx) =>
                  tx.collections.issues.count(workspaceId, query.where),
                );
                expect({ where: query.where, total, counted }).toEqual({
                  where: query.where,
                  total: expected,
                  counted: expected,
                });
              }
            }
          } finally {
            await storage.close();
          }
        }),
        { numRuns: runsOn(adapter, 25) },
      );
    });
  });
}
