import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ImportWriteFailed, type Storage } from '../../src/core/index.js';
import { inWorld, readSignals, runsOn } from '../properties/support.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { failingStorage } from '../support/failing-storage.js';
import { bareWorkspace, buildWorkspace, exportLines, importLines, recordsOf, type Step } from './support.js';

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('member' as const), n: fc.nat(99) }),
  fc.record({ kind: fc.constant('project' as const), n: fc.nat(99) }),
  fc.record({ kind: fc.constant('outcome' as const), pick: fc.nat(9), owner: fc.option(fc.nat(9)) }),
  fc.record({
    kind: fc.constant('issue' as const),
    pick: fc.nat(9),
    assignee: fc.option(fc.nat(9)),
    labels: fc.array(fc.constantFrom('bug', 'ui', 'p1'), { maxLength: 2 }),
  }),
  fc.record({
    kind: fc.constant('transition' as const),
    pick: fc.nat(9),
    to: fc.constantFrom('in_progress' as const, 'blocked' as const, 'resolved' as const, 'closed' as const),
  }),
  fc.record({
    kind: fc.constant('patch' as const),
    pick: fc.nat(9),
    title: fc.string({ minLength: 1, maxLength: 20 }),
  }),
  fc.record({
    kind: fc.constant('decision' as const),
    pick: fc.nat(9),
    status: fc.constantFrom('proposed' as const, 'accepted' as const),
  }),
  fc.record({ kind: fc.constant('context' as const), pick: fc.nat(9) }),
  fc.record({
    kind: fc.constant('time' as const),
    pick: fc.nat(9),
    minutes: fc.integer({ min: 1, max: 600 }),
    onIssue: fc.boolean(),
    day: fc.nat(27),
  }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 5000 }) }),
  fc.record({
    kind: fc.constant('comment' as const),
    on: fc.constantFrom('issue' as const, 'outcome' as const, 'decision' as const),
    pick: fc.nat(9),
  }),
  fc.record({
    kind: fc.constant('relation' as const),
    from: fc.nat(9),
    to: fc.nat(9),
    type: fc.constantFrom(
      'blocks' as const,
      'relates_to' as const,
      'duplicates' as const,
      'child_of' as const,
    ),
  }),
);

const everyFamily: Step[] = [
  { kind: 'member', n: 1 },
  { kind: 'outcome', pick: 0, owner: 1 },
  { kind: 'issue', pick: 0, assignee: 1, labels: ['bug'] },
  { kind: 'issue', pick: 0, assignee: null, labels: ['ui'] },
  { kind: 'issue', pick: 0, assignee: null, labels: [] },
  { kind: 'decision', pick: 0, status: 'accepted' },
  { kind: 'context', pick: 0 },
  { kind: 'time', pick: 0, minutes: 15, onIssue: true, day: 2 },
  { kind: 'comment', on: 'issue', pick: 0 },
  { kind: 'comment', on: 'outcome', pick: 0 },
  { kind: 'comment', on: 'decision', pick: 0 },
  { kind: 'relation', from: 0, to: 1, type: 'blocks' },
  { kind: 'relation', from: 1, to: 2, type: 'relates_to' },
  { kind: 'relation', from: 2, to: 0, type: 'duplicates' },
  { kind: 'relation', from: 2, to: 0, type: 'child_of' },
];

describe.each(adaptersUnderTest)('export and import on $name storage', (adapter) => {
  it('exports comments and issue relations, after what they name', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, everyFamily);
      const families = (
        recordsOf(await exportLines(world.tracker.storage, world.ws.slug)) as { family: string }[]
      ).map((r) => r.family);
      expect(families.filter((f) => f === 'comments')).toHaveLength(3);
      expect(families.filter((f) => f === 'issueRelations')).toHaveLength(4);
      expect(families.indexOf('comments')).toBeGreaterThan(families.lastIndexOf('issues'));
      expect(families.indexOf('comments')).toBeGreaterThan(families.lastIndexOf('decisions'));
      expect(families.indexOf('issueRelations')).toBeGreaterThan(families.lastIndexOf('issues'));
      const issues = (
        recordsOf(await exportLines(world.tracker.storage, world.ws.slug)) as {
          family: string;
          record: { external: unknown };
        }[]
      ).filter((r) => r.family === 'issues');
      // Where an imported issue came from is exported with it; an issue made here has none.
      expect(issues.map((r) => r.record.external)).toEqual([
        null,
        { source: 'jira', id: 'UI-2', url: 'https://acme.atlassian.net/browse/UI-2' },
        null,
      ]);
    });
  });

  it('gives back, from an export imported into a fresh database, an export equal to the first record for record', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 30 }), async (steps) => {
        await inWorld(adapter, async (world) => {
          await buildWorkspace(world, steps);
          const first = await exportLines(world.tracker.storage, world.ws.slug);

          const fresh = await adapter.create();
          try {
            await bareWorkspace(fresh, world.ws.slug);
            const report = await importLines(fresh, world.ws.slug, first, { batchSize: 7 });
            expect(report.problems).toEqual([]);
            const second = await exportLines(fresh, world.ws.slug);
            // Record for record, byte for byte: fields keep their order too.
            expect(second.slice(1, -1)).toEqual(first.slice(1, -1));
            expect(JSON.parse(second.at(-1) ?? '')).toEqual(JSON.parse(first.at(-1) ?? ''));

            // A second import finds every record and creates nothing.
            const again = await importLines(fresh, world.ws.slug, first);
            expect(again.created).toEqual({});
            expect(Object.values(again.existing).reduce((a, b) => a + b, 0)).toBe(first.length - 2);
            expect(await exportLines(fresh, world.ws.slug).then(recordsOf)).toEqual(recordsOf(first));
          } finally {
            await fresh.close();
          }
        });
      }),
      {
        numRuns: runsOn(adapter, 15),
        // Always once with every family: comments on each kind of thread, relations of each
        // stored type (blocks, relates_to, duplicates, a parent), so their counts travel too.
        examples: [[everyFamily]],
      },
    );
  });
});

describe.each(adaptersUnderTest)('importing an export on $name storage', (adapter) => {
  const steps: Step[] = [
    { kind: 'member', n: 1 },
    { kind: 'outcome', pick: 0, owner: 1 },
    { kind: 'issue', pick: 0, assignee: 1, labels: ['bug'] },
    { kind: 'transition', pick: 0, to: 'resolved' },
    { kind: 'time', pick: 0, minutes: 30, onIssue: true, day: 3 },
  ];

  it('announces every record it creates with its created signal, and none with quietEvents', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, steps);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const records = recordsOf(lines) as { family: string; record: unknown }[];
      expect(records.map((r) => r.family)).toEqual([
        'members',
        'members',
        'projects',
        'outcomes',
        'issues',
        'timeEntries',
      ]);

      await inWorld(adapter, async (target) => {
        const before = (await readSignals(target)).length;
        const report = await importLines(target.tracker.storage, target.ws.slug, lines);
        // The target's admin is another person; its project Apollo has another key's id, and APO is taken.
        expect(report.problems).toEqual([
          expect.objectContaining({ line: 4, field: 'key', message: expect.stringContaining('APO') }),
        ]);
        expect((await readSignals(target)).length).toBe(before);
      });

      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, 'quiet');
        expect((await importLines(fresh, 'quiet', lines, { quietEvents: true })).created).toMatchObject({
          issues: 1,
        });
        const quietSignals = await fresh.transaction((tx) => tx.signals.latestSequence());
        expect(quietSignals).toBe(0);
      } finally {
        await fresh.close();
      }

      const loud = await adapter.create();
      try {
        await bareWorkspace(loud, 'loud');
        await importLines(loud, 'loud', lines);
        const signals = await loud.transaction((tx) =>
          tx.signals.list({ accountId: 'acct_bareloud', limit: 100 }),
        );
        expect(signals.map((s) => s.type)).toEqual([
          'member.created',
          'member.created',
          'project.created',
          'outcome.created',
          'issue.created',
          'time_entry.created',
        ]);
        expect(signals.find((s) => s.type === 'issue.created')?.data.object).toEqual(records[4]?.record);
      } finally {
        await loud.close();
      }
    });
  });

  it('reports every bad line with its file, line and field, and writes nothing (nor in a dry run)', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, steps);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const broken = [...lines];
      const issue = JSON.parse(broken[5] ?? '');
      issue.record.severity = 'urgent';
      broken[5] = JSON.stringify(issue);
      broken[6] = '{"family":"timeEntries","record":';
      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, 'broken');
        for (const dryRun of [true, false]) {
          const report = await importLines(fresh, 'broken', broken, { dryRun });
          expect(report.problems).toEqual([
            { file: 'export.jsonl', line: 6, field: 'record.severity', message: expect.any(String) },
            { file: 'export.jsonl', line: 7, field: null, message: expect.stringMatching(/^not JSON/) },
            {
              file: 'export.jsonl',
              line: 8,
              field: 'counts.timeEntries',
              message: 'says 1 records, the file has 0',
            },
          ]);
          expect(await exportLines(fresh, 'broken').then(recordsOf)).toEqual([]);
        }
        const dry = await importLines(fresh, 'broken', lines, { dryRun: true });
        expect(dry).toMatchObject({
          dryRun: true,
          problems: [],
          created: { members: 2, issues: 1, timeEntries: 1 },
        });
        expect(await exportLines(fresh, 'broken').then(recordsOf)).toEqual([]);
        const cut = await importLines(fresh, 'broken', lines.slice(0, -1), { dryRun: true });
        expect(cut.problems).toEqual([
          expect.objectContaining({ line: lines.length, message: expect.stringContaining('cut short') }),
        ]);
      } finally {
        await fresh.close();
      }
    });
  });
});

describe.each(adaptersUnderTest)('an interrupted import on $name storage', (adapter) => {
  it('keeps the batches written before the failure, and a re-run goes on from there to the same workspace', async () => {
    await inWorld(adapter, async (world) => {
      const steps: Step[] = Array.from({ length: 6 }, (_, i) => ({
        kind: 'issue',
        pick: 0,
        assignee: null,
        labels: [`l${i}`],
      }));
      await buildWorkspace(world, steps);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, 'resumed');
        const broken = failingStorage(fresh);
        let inserts = 0;
        // The fourth issue fails, as a lost connection would: batches of two records.
        const counting: Storage = {
          ...broken.storage,
          transaction: (fn, options) =>
            broken.storage.transaction(
              (tx) =>
                fn({
                  ...tx,
                  collections: {
                    ...tx.collections,
                    issues: {
                      ...tx.collections.issues,
                      insert: async (row, json) => {
                        inserts += 1;
                        broken.failIssueInserts(inserts === 4);
                        return tx.collections.issues.insert(row, json);
                      },
                    },
                  },
                }),
              options,
            ),
        };
        const failed = await importLines(counting, 'resumed', lines, { batchSize: 2 }).catch(
          (error) => error,
        );
        expect(failed).toBeInstanceOf(ImportWriteFailed);
        // Header, member, project, then issues: the fourth issue is on line 7.
        expect(failed.problem).toMatchObject({ file: 'export.jsonl', line: 7 });
        const partial = recordsOf(await exportLines(fresh, 'resumed')) as { family: string }[];
        expect(partial.filter((r) => r.family === 'issues')).toHaveLength(2);

        const resumed = await importLines(fresh, 'resumed', lines, { batchSize: 2 });
        expect(resumed.created).toEqual({ issues: 4 });
        expect(resumed.existing).toEqual({ members: 1, projects: 1, issues: 2 });
        expect(recordsOf(await exportLines(fresh, 'resumed'))).toEqual(recordsOf(lines));
      } finally {
        await fresh.close();
      }
    });
  });
});
