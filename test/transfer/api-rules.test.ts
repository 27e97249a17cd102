import { describe, expect, it } from 'vitest';
import { ApiError, ImportWriteFailed, UniqueViolation } from '../../src/core/index.js';
import { inWorld } from '../properties/support.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { bareWorkspace, buildWorkspace, exportLines, importLines, recordsOf, type Step } from './support.js';

/** An outcome, four issues, and APO-3 blocks APO-4 (issues 2 and 3 of the list). */
const steps: Step[] = [
  { kind: 'outcome', pick: 0, owner: null },
  ...Array.from({ length: 4 }, () => ({ kind: 'issue' as const, pick: 0, assignee: null, labels: [] })),
  { kind: 'relation', from: 2, to: 3, type: 'blocks' },
];

type Line = { family: string; record: Record<string, unknown> };

/** The export with `extra` records added before its trailer, and the trailer's counts made true. */
function withRecords(lines: readonly string[], extra: readonly Line[]): string[] {
  const records = [...(recordsOf(lines) as Line[]), ...extra];
  const counts: Record<string, number> = {};
  for (const { family } of records) counts[family] = (counts[family] ?? 0) + 1;
  return [lines[0] ?? '', ...records.map((r) => JSON.stringify(r)), JSON.stringify({ end: true, counts })];
}

describe.each(adaptersUnderTest)('import checks on $name storage', (adapter) => {
  it('refuses what the API refuses: relation cycles, second parents, self relations, bad comments, blank and oversized text', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, steps);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const records = recordsOf(lines) as Line[];
      const issues = records.filter((r) => r.family === 'issues').map((r) => r.record);
      const outcome = records.find((r) => r.family === 'outcomes')?.record ?? {};
      const issue = (n: number) => String(issues[n - 1]?.id);
      const project = issues[0] ?? {};
      const times = { createdAt: project.createdAt, updatedAt: project.updatedAt, version: 1 };
      const relation = (id: string, type: string, sourceId: string, targetId: string): Line => ({
        family: 'issueRelations',
        record: { id, type, sourceId, targetId, ...times },
      });
      const comment = (id: string, fields: Record<string, unknown>): Line => ({
        family: 'comments',
        record: {
          id,
          issueId: null,
          outcomeId: null,
          decisionId: null,
          authorId: null,
          editedAt: null,
          ...times,
          ...fields,
        },
      });
      const newIssue = (id: string, number: number, fields: Record<string, unknown>): Line => ({
        family: 'issues',
        record: { ...project, id, number, key: `${String(project.key).split('-')[0]}-${number}`, ...fields },
      });
      const extra: Line[] = [
        relation('rel_cycle', 'blocks', issue(4), issue(3)),
        relation('rel_parent', 'parent_of', issue(1), issue(2)),
        relation('rel_second', 'parent_of', issue(3), issue(2)),
        relation('rel_self', 'parent_of', issue(1), issue(1)),
        comment('cmt_both', { issueId: issue(1), outcomeId: outcome.id, body: 'Both' }),
        comment('cmt_empty', { issueId: issue(1), body: '' }),
        {
          family: 'projects',
          record: { id: 'prj_noname', name: '', key: 'NONAME', description: null, ...times },
        },
        newIssue('iss_blank', 90, { title: '   ' }),
        newIssue('iss_labels', 91, { labels: Array.from({ length: 60 }, (_, i) => `l${i}`) }),
        relation('rel_stored', 'blocks', issue(3), issue(4)),
        relation('rel_twice', 'parent_of', issue(1), issue(2)),
        relation('rel_ends', 'relates_to', issue(1), issue(4)),
        relation('rel_back', 'relates_to', issue(4), issue(1)),
      ];
      const file = withRecords(lines, extra);
      const first = lines.length - 1;
      const at = (i: number, field: string, message: RegExp) => ({
        file: 'export.jsonl',
        line: first + i,
        field,
        message: expect.stringMatching(message),
      });
      // The file goes into the same workspace: its own records are there already, the new ones are checked.
      for (const dryRun of [true, false]) {
        const report = await importLines(world.tracker.storage, world.ws.slug, file, { dryRun });
        expect(report.problems).toEqual([
          at(1, 'record.targetId', /would close a cycle/),
          at(3, 'record.targetId', /already has a parent/),
          at(4, 'record.targetId', /cannot be related to itself/),
          at(5, 'record.issueId', /exactly one of issueId, outcomeId and decisionId/),
          at(6, 'record.body', /blank/),
          at(7, 'record.name', /./),
          at(8, 'record.title', /blank/),
          at(9, 'record.labels', /./),
          at(10, 'record.targetId', /already related so/),
          at(11, 'record.targetId', /already related so/),
          at(13, 'record.targetId', /already related so/),
        ]);
        expect(report.created).toEqual({});
      }
      expect(await exportLines(world.tracker.storage, world.ws.slug)).toHaveLength(lines.length);
      // Without the refused records, the same file goes in.
      const fine = await importLines(
        world.tracker.storage,
        world.ws.slug,
        withRecords(lines, extra.slice(1, 2)),
      );
      expect(fine).toMatchObject({ problems: [], created: { issueRelations: 1 } });
    });
  });

  it('finds in the check the ids another workspace of the database holds, and writes nothing', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, steps);
      const storage = world.tracker.storage;
      const lines = await exportLines(storage, world.ws.slug);
      await bareWorkspace(storage, 'second');
      for (const dryRun of [true, false]) {
        const report = await importLines(storage, 'second', lines, { dryRun });
        const taken = report.problems.filter((p) => p.field === 'record.id');
        // Every record but the members (matched by email) is taken: the project, the outcome, four issues, the relation.
        expect(taken).toHaveLength(7);
        expect(taken[0]?.message).toMatch(/another workspace \(.+\) of this database/);
        expect(report.created).toEqual({});
        expect(await exportLines(storage, 'second').then(recordsOf)).toEqual([]);
      }
    });
  });

  it('reports every problem of a record, and stops the check after maxProblems', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, steps);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const records = recordsOf(lines) as Line[];
      const issue = records.find((r) => r.family === 'issues')?.record ?? {};
      const bad = Array.from({ length: 5 }, (_, i) => ({
        family: 'issues',
        record: { ...issue, id: `iss_bad${i}`, number: 50 + i, title: ' ', labels: Array(51).fill('x') },
      }));
      const file = withRecords(lines, bad);
      const all = await importLines(world.tracker.storage, world.ws.slug, file, { dryRun: true });
      expect(all.problems.filter((p) => p.line === lines.length).map((p) => p.field)).toEqual([
        'record.title',
        'record.labels',
      ]);
      const capped = await importLines(world.tracker.storage, world.ws.slug, file, {
        dryRun: true,
        maxProblems: 3,
        batchSize: 1,
      });
      expect(capped.problems).toHaveLength(4);
      expect(capped.problems[3]?.message).toBe(
        'the check stopped after 3 problems: the rest of the file was not checked',
      );
    });
  });
});

describe('a write that fails after the check', () => {
  const problem = { file: 'export.jsonl', line: 3, field: null, message: 'failed' };
  const report = { dryRun: false, created: {}, existing: {}, problems: [] };

  it('can go on in a new run after a lost connection, not after a refusal the database would repeat', () => {
    const lost = new ImportWriteFailed(problem, report, { cause: new Error('connection terminated') });
    expect(lost.resumable).toBe(true);
    for (const cause of [
      new UniqueViolation('projects.id'),
      new ApiError(422, 'relation_cycle', 'This blocks relation would close a cycle.'),
    ])
      expect(new ImportWriteFailed(problem, report, { cause }).resumable).toBe(false);
  });
});
