import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issueSorts } from '../../src/core/families/issues/schema.js';
import { issueSeverities } from '../../src/core/model.js';
import { sortKeyCanChange, sortKeyOf } from '../../src/core/sort-keys.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, type World } from './support.js';

interface Listed {
  id: string;
  version: number;
  [field: string]: unknown;
}

const titles = ['Outage in checkout', 'outage in checkout', 'Éclair page', 'slow CSV export', 'Zebra'];
const sorts = issueSorts.flatMap((field) => [field, `-${field}`]);

/** A create, or a change of title and severity (both sort fields, and updatedAt with them). */
const change = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    title: fc.constantFrom(...titles),
    severity: fc.constantFrom(...issueSeverities),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    pick: fc.nat(),
    title: fc.constantFrom(...titles),
    severity: fc.constantFrom(...issueSeverities),
  }),
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

async function createIssue(world: World, title: string, severity: string): Promise<Listed> {
  const res = await world.call('POST', '/issues', {
    body: { projectId: world.ws.projectId, title, severity },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status).toBe(201);
  return res.json;
}

/** (sort key, id) order of the field, reversed for `-field`, as the API guide describes it. */
function precedes(sort: string, a: Listed, b: Listed): boolean {
  const field = sort.replace(/^-/, '');
  const ka = sortKeyOf('issues', field, a);
  const kb = sortKeyOf('issues', field, b);
  const ascending = ka < kb || (ka === kb && a.id < b.id);
  return sort.startsWith('-') ? !ascending && a.id !== b.id : ascending;
}

describe.each(adaptersUnderTest)('issues paged under every sort on $name storage', (adapter) => {
  it('return each item at most once, and every item left unchanged exactly once and in order, while issues are created and updated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...sorts),
        fc.array(
          fc.record({ title: fc.constantFrom(...titles), severity: fc.constantFrom(...issueSeverities) }),
          { maxLength: 12 },
        ),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(change, { maxLength: 3 }), { maxLength: 12 }),
        async (sort, initial, limit, interleaved) => {
          await inWorld(adapter, async (world) => {
            const issues: Listed[] = [];
            for (const { title, severity } of initial) {
              world.clock.advance(1);
              issues.push(await createIssue(world, title, severity));
            }
            const changed = new Set<string>();
            const apply = async (c: Change) => {
              world.clock.advance(1);
              if (c.kind === 'create') {
                await createIssue(world, c.title, c.severity);
                return;
              }
              const issue = issues[c.pick % Math.max(1, issues.length)];
              if (!issue) return;
              const res = await world.call('PATCH', `/issues/${issue.id}`, {
                body: { title: c.title, severity: c.severity },
                headers: { 'if-match': `"${issue.version}"` },
              });
              expect(res.status).toBe(200);
              if (res.json.version !== issue.version) changed.add(issue.id);
              issue.version = res.json.version;
            };

            const seen: Listed[] = [];
            let cursor: string | null = null;
            let pages = 0;
            do {
              const query: Record<string, string> = {
                limit: String(limit),
                sort,
                ...(cursor ? { cursor } : {}),
              };
              const page = await world.call('GET', '/issues', { query });
              expect(page.status).toBe(200);
              if (pages === 0) expect(page.json.total).toBe(issues.length);
              seen.push(...page.json.data);
              cursor = page.json.nextCursor;
              for (const c of interleaved[pages] ?? []) await apply(c);
              pages += 1;
            } while (cursor !== null && pages < 200);

            expect(cursor).toBeNull();
            const seenIds = seen.map((issue) => issue.id);
            // An item changed while paging may be missed (it moved; later pages leave it out), but
            // never comes twice.
            expect(new Set(seenIds).size).toBe(seenIds.length);
            // Under a sort whose key never changes (number), an edit moves nothing: every issue
            // there at the start comes, edited or not.
            const field = sort.replace(/^-/, '');
            const mustCome = sortKeyCanChange('issues', field)
              ? issues.filter((issue) => !changed.has(issue.id))
              : issues;
            expect(seenIds).toEqual(expect.arrayContaining(mustCome.map((issue) => issue.id)));
            // Items whose sort key never moved come in the sort's order.
            const steady = seen.filter((issue) => !changed.has(issue.id));
            for (let i = 1; i < steady.length; i++) {
              expect(precedes(sort, steady[i - 1] as Listed, steady[i] as Listed)).toBe(true);
            }
          });
        },
      ),
      { numRuns: runsOn(adapter, 40) },
    );
  });

  it('answer a first page in the sort order with the exact total, refuse an unknown field with 400 validation_failed and a cursor reused with another sort with 400 invalid_cursor', async () => {
    await inWorld(adapter, async (world) => {
      const made: Listed[] = [];
      for (const [i, title] of titles.entries()) {
        world.clock.advance(1);
        made.push(await createIssue(world, title, issueSeverities[i % issueSeverities.length] as string));
      }
      for (const sort of sorts) {
        const page = await world.call('GET', '/issues', { query: { sort, limit: '200' } });
        expect(page.status).toBe(200);
        expect(page.json.total).toBe(made.length);
        const expected = [...made].sort((a, b) => (precedes(sort, a, b) ? -1 : 1)).map((i) => i.id);
        expect({ sort, ids: page.json.data.map((i: Listed) => i.id) }).toEqual({ sort, ids: expected });
      }
      const unknown = await world.call('GET', '/issues', { query: { sort: '-labels' } });
      expect({ status: unknown.status, error: unknown.json.error }).toEqual({
        status: 400,
        error: 'validation_failed',
      });
      const first = await world.call('GET', '/issues', { query: { sort: 'title', limit: '1' } });
      const cursor: string = first.json.nextCursor;
      const others: Record<string, string>[] = [
        { sort: '-title' },
        { sort: 'severity' },
        {},
        { sort: 'title', severity: 'low' },
      ];
      for (const other of others) {
        const reused = await world.call('GET', '/issues', { query: { limit: '1', cursor, ...other } });
        expect({ other, status: reused.status, error: reused.json.error }).toEqual({
          other,
          status: 400,
          error: 'invalid_cursor',
        });
      }
      const next = await world.call('GET', '/issues', { query: { sort: 'title', limit: '1', cursor } });
      expect(next.status).toBe(200);
    });
  });
});
