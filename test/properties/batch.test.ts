import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { dumpTables, type Storage } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, readSignals, runsOn, type World } from './support.js';

/**
 * Operations that apply in any order against a world holding two issues (A and B): creates,
 * changes with If-Match `*`, comments and archives (archiving twice is allowed).
 */
type Step =
  | { kind: 'createIssue'; title: string; severity: 'low' | 'high' }
  | { kind: 'patchIssue'; which: 0 | 1; severity: 'low' | 'medium' | 'high' }
  | { kind: 'comment'; which: 0 | 1; body: string }
  | { kind: 'archive'; which: 0 | 1 }
  | { kind: 'createOutcome'; title: string };

const title = fc.string({ minLength: 1, maxLength: 12 }).filter((t) => t.trim() === t && t.trim() !== '');
const which = fc.constantFrom<0 | 1>(0, 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('createIssue' as const), title, severity: fc.constantFrom('low', 'high') }),
  fc.record({
    kind: fc.constant('patchIssue' as const),
    which,
    severity: fc.constantFrom('low', 'medium', 'high'),
  }),
  fc.record({ kind: fc.constant('comment' as const), which, body: title }),
  fc.record({ kind: fc.constant('archive' as const), which }),
  fc.record({ kind: fc.constant('createOutcome' as const), title }),
);

/** Operations that fail whatever ran before them: each refused by a different check of its route. */
const failures = [
  (_ids: string[]) => ({ method: 'POST', path: '/issues', body: { title: 'No project' } }), // 400
  (ids: string[]) => ({
    method: 'PATCH',
    path: `/issues/${ids[0]}`,
    ifMatch: '"999"',
    body: { severity: 'low' },
  }), // 409
  (_ids: string[]) => ({ method: 'POST', path: '/issues/iss_nosuchissue000000000/archive' }), // 404
  (ids: string[]) => ({ method: 'PATCH', path: `/issues/${ids[1]}`, body: { severity: 'low' } }), // 428
  (ids: string[]) => ({ method: 'POST', path: `/issues/${ids[0]}/transition`, body: { to: 'nowhere' } }), // 400
];

interface Operation {
  method: string;
  path: string;
  body?: unknown;
  ifMatch?: string;
}

function operationOf(world: World, ids: string[], s: Step): Operation {
  switch (s.kind) {
    case 'createIssue':
      return {
        method: 'POST',
        path: '/issues',
        body: { projectId: world.ws.projectId, title: s.title, severity: s.severity },
      };
    case 'patchIssue':
      return {
        method: 'PATCH',
        path: `/issues/${ids[s.which]}`,
        ifMatch: '*',
        body: { severity: s.severity },
      };
    case 'comment':
      return { method: 'POST', path: '/comments', body: { issueId: ids[s.which], body: s.body } };
    case 'archive':
      return { method: 'POST', path: `/issues/${ids[s.which]}/archive`, ifMatch: '*' };
    case 'createOutcome':
      return { method: 'POST', path: '/outcomes', body: { projectId: world.ws.projectId, title: s.title } };
  }
}

/** A world with two issues; returns their ids. */
async function twoIssues(world: World): Promise<string[]> {
  const ids: string[] = [];
  for (const name of ['A', 'B']) {
    const res = await world.call('POST', '/issues', {
      body: { projectId: world.ws.projectId, title: name },
      headers: { 'idempotency-key': randomUUID() },
    });
    ids.push(res.json.id);
  }
  return ids;
}

/** Every row of every table, canonical and sorted: the whole database, compared by content. */
async function dumpOf(storage: Storage): Promise<Record<string, string[]>> {
  return storage.transaction(
    async (tx) => {
      const tables: Record<string, string[]> = {};
      for (const table of dumpTables) {
        const rows: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { rows: unknown[]; next: string | null } = await tx.dump.page(table, cursor, 500);
          rows.push(...page.rows.map((row) => canonicalJson(row)));
          cursor = page.next;
        } while (cursor !== null);
        tables[table] = rows.sort();
      }
      return tables;
    },
    { mode: 'read' },
  );
}

/** Ids replaced by their order of first appearance, so two worlds' answers compare. */
function withIdsNumbered(value: unknown): unknown {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value).replace(/\b[a-z]{3}_[A-Za-z0-9]{20}\b/g, (id) => {
    if (!seen.has(id)) seen.set(id, `id#${seen.size}`);
    return seen.get(id) ?? id;
  });
  return JSON.parse(text);
}

const batch = (world: World, operations: Operation[], key = randomUUID()) =>
  world.call('POST', '/batch', { body: { operations }, headers: { 'idempotency-key': key } });

describe.each(adaptersUnderTest)('batches on $name storage', (adapter) => {
  it('leave the database and its signals as they were when one operation fails, wherever it is', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 0, maxLength: 8 }),
        fc.nat(),
        fc.nat({ max: failures.length - 1 }),
        async (steps, at, failure) => {
          let storage: Storage | undefined;
          await inWorld(
            adapter,
            async (world) => {
              const ids = await twoIssues(world);
              const operations = steps.map((s) => operationOf(world, ids, s));
              const failedIndex = at % (operations.length + 1);
              operations.splice(failedIndex, 0, failures[failure]?.(ids) as Operation);
              world.clock.advance(1000);
              const before = await dumpOf(storage as Storage);
              const signalsBefore = await readSignals(world);
              const res = await batch(world, operations);
              expect(res.status).toBeGreaterThanOrEqual(400);
              expect(res.json.failedIndex).toBe(failedIndex);
              expect(res.json.operations.map((o: { outcome: string }) => o.outcome)).toEqual(
                operations.map((_, i) =>
                  i < failedIndex ? 'rolled_back' : i === failedIndex ? 'failed' : 'not_run',
                ),
              );
              expect(await dumpOf(storage as Storage)).toEqual(before);
              expect(await readSignals(world)).toEqual(signalsBefore);
            },
            {
              wrap: (inner) => {
                storage = inner;
                return inner;
              },
            },
          );
        },
      ),
      { numRuns: runsOn(adapter, 20) },
    );
  });

  it('apply as the same operations sent one by one: the same answers, signals and data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const run = (oneByOne: boolean) =>
          inWorld(adapter, async (world) => {
            const ids = await twoIssues(world);
            const after = (await readSignals(world)).at(-1)?.sequence ?? 0;
            const operations = steps.map((s) => operationOf(world, ids, s));
            let results: unknown[];
            if (oneByOne) {
              results = [];
              for (const op of operations) {
                const res = await world.call(op.method, op.path, {
                  ...(op.body === undefined ? {} : { body: op.body }),
                  headers: {
                    ...(op.ifMatch ? { 'if-match': op.ifMatch } : {}),
                    ...(op.method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
                  },
                });
                expect(res.status, res.text).toBeLessThan(300);
                results.push({
                  status: res.status,
                  ...(res.json === undefined ? {} : { body: res.json }),
                  ...(res.headers.etag ? { etag: res.headers.etag } : {}),
                  ...(res.headers.location ? { location: res.headers.location } : {}),
                });
              }
            } else {
              const res = await batch(world, operations);
              expect(res.status, res.text).toBe(200);
              results = res.json.results;
            }
            const signals = (await readSignals(world, after)).map(({ type, resource, data, actor }) => ({
              type,
              resource,
              data,
              actor,
            }));
            const issues = await world.call('GET', '/issues', { query: { archived: 'true', limit: '200' } });
            const outcomes = await world.call('GET', '/outcomes', {
              query: { archived: 'true', limit: '200' },
            });
            return withIdsNumbered({ results, signals, issues: issues.json, outcomes: outcomes.json, ids });
          });
        // Both worlds run at the same fake time: only the ids differ, and they are numbered.
        expect(await run(false)).toEqual(await run(true));
      }),
      { numRuns: runsOn(adapter, 15) },
    );
  });
});
