import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IssueSeverity, issueSeverities } from '../../src/core/model.js';
import { startTime } from '../http/harness.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, openWorld, runsOn, type World } from './support.js';

interface Listed {
  id: string;
  createdAt: string;
  title: string;
  severity: IssueSeverity;
}

/** Titles with upper- and lower-case, accented and plain letters, so that searches differ by case. */
const titles = [
  'Outage in checkout',
  'Éclair page renders blank',
  'slow CSV export',
  'Retry storm after outage',
];

/** An insert, after moving the clock by 0 ms (often, so createdAt values tie) or a little. */
const insert = fc.record({
  title: fc.constantFrom(...titles),
  severity: fc.constantFrom(...issueSeverities),
  advanceMs: fc.constantFrom(0, 0, 0, 1, 250),
});
type Insert = typeof insert extends fc.Arbitrary<infer T> ? T : never;

/** The list filters the property pages with: none, a severity, a search text, or a creation-time bound. */
type Filter =
  | { severity: IssueSeverity }
  | { q: string }
  | { createdAfter: string }
  | { createdBefore: string }
  | null;
/** A creation-time bound near the instants the inserts happen at (the clock starts at `startTime`). */
const bound = fc.integer({ min: 0, max: 1500 }).map((ms) => new Date(startTime + ms).toISOString());
const filter: fc.Arbitrary<Filter> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(...issueSeverities).map((severity) => ({ severity })),
  // Searches need 3 characters (shorter ones are refused, see the search tests).
  fc.constantFrom('OUTAGE', 'out', 'OUT', 'ÉCL', 'éclair', 'csv', 'ry s', 'blank page').map((q) => ({ q })),
  bound.map((createdAfter) => ({ createdAfter })),
  bound.map((createdBefore) => ({ createdBefore })),
);

/**
 * Whether an issue matches the filter as the contract and the API guide describe it: search is
 * a case-insensitive substring; createdAfter is inclusive, createdBefore exclusive.
 */
function matches(issue: Listed, by: Filter): boolean {
  if (by === null) return true;
  if ('severity' in by) return issue.severity === by.severity;
  if ('createdAfter' in by) return issue.createdAt >= by.createdAfter;
  if ('createdBefore' in by) return issue.createdAt < by.createdBefore;
  return issue.title.toLowerCase().includes(by.q.toLowerCase());
}

async function createIssue(world: World, row: Omit<Insert, 'advanceMs'>): Promise<Listed> {
  const res = await world.call('POST', '/issues', {
    body: { projectId: world.ws.projectId, title: row.title, severity: row.severity },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status).toBe(201);
  return res.json;
}

/** Whether `a` comes strictly before `b` in the list order (createdAt desc, id desc). */
const before = (a: Listed, b: Listed) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

const filterQuery = (by: Filter): Record<string, string> => (by === null ? {} : { ...by });

describe.each(adaptersUnderTest)('cursor pagination of issues on $name storage', (adapter) => {
  it('see every pre-existing item exactly once, in order, while inserts interleave with the paging', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(insert, { maxLength: 14 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        filter,
        fc.array(fc.array(insert, { maxLength: 3 }), { maxLength: 12 }),
        async (initial, limits, by, interleaved) => {
          await inWorld(adapter, async (world) => {
            const existing: Listed[] = [];
            for (const row of initial) {
              world.clock.advance(row.advanceMs);
              existing.push(await createIssue(world, row));
            }
            const matching = existing.filter((issue) => matches(issue, by));

            const seen: Listed[] = [];
            let cursor: string | null = null;
            let pages = 0;
            do {
              // The page size is no filter: a client may change it from one page to the next.
              const limit = limits[pages % limits.length] ?? 1;
              const query: Record<string, string> = {
                limit: String(limit),
                ...filterQuery(by),
                ...(cursor ? { cursor } : {}),
              };
              const page = await world.call('GET', '/issues', { query });
              expect(page.status).toBe(200);
              if (pages === 0) expect(page.json.total).toBe(matching.length);
              expect(page.json.data.length).toBeLessThanOrEqual(limit);
              seen.push(...page.json.data);
              cursor = page.json.nextCursor;
              for (const row of interleaved[pages] ?? []) {
                world.clock.advance(row.advanceMs);
                await createIssue(world, row);
              }
              pages += 1;
            } while (cursor !== null && pages < 200);

            expect(cursor).toBeNull();
            const seenIds = seen.map((issue) => issue.id);
            expect(new Set(seenIds).size).toBe(seenIds.length);
            expect(seenIds).toEqual(expect.arrayContaining(matching.map((issue) => issue.id)));
            for (const issue of seen)
              expect({ issue: issue.title, matches: matches(issue, by) }).toMatchObject({ matches: true });
            for (let i = 1; i < seen.length; i++) {
              expect(before(seen[i - 1] as Listed, seen[i] as Listed)).toBe(true);
            }
          });
        },
      ),
      { numRuns: runsOn(adapter, 40) },
    );
  });

  it('refuse a cursor reused with other filters with 400 invalid_cursor', async () => {
    await fc.assert(
      fc.asyncProperty(filter, filter, fc.boolean(), async (madeWith, usedWith, addStatus) => {
        fc.pre(JSON.stringify(madeWith) !== JSON.stringify(usedWith) || addStatus);
        await inWorld(adapter, async (world) => {
          const created: Listed[] = [];
          for (const title of titles) {
            for (const severity of issueSeverities)
              created.push(await createIssue(world, { title, severity }));
          }
          // The cursor needs a second page to exist.
          fc.pre(created.filter((issue) => matches(issue, madeWith)).length >= 2);
          const first = await world.call('GET', '/issues', {
            query: { limit: '1', ...filterQuery(madeWith) },
          });
          const cursor: string = first.json.nextCursor;
          expect(cursor).toEqual(expect.any(String));
          const reused = await world.call('GET', '/issues', {
            query: {
              limit: '1',
              cursor,
              ...filterQuery(usedWith),
              ...(addStatus ? { status: 'open' } : {}),
            },
          });
          expect({ status: reused.status, error: reused.json.error }).toEqual({
            status: 400,
            error: 'invalid_cursor',
          });
        });
      }),
      { numRuns: runsOn(adapter, 15) },
    );
  });

  describe('with cursors altered by a client', () => {
    let world: World;
    let cursor: string;
    beforeAll(async () => {
      world = await openWorld(adapter);
      for (let i = 0; i < 3; i++) await createIssue(world, { title: 'Paged', severity: 'medium' });
      const first = await world.call('GET', '/issues', { query: { limit: '1' } });
      cursor = first.json.nextCursor;
    });
    afterAll(() => world.close());

    it('accept the cursor as it was given', async () => {
      const next = await world.call('GET', '/issues', { query: { limit: '1', cursor } });
      expect(next.status).toBe(200);
      expect(next.json.data).toHaveLength(1);
    });

    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/% é~';
    it('answer 400 invalid_cursor, never 500, when any one character is changed', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(), fc.nat({ max: alphabet.length - 2 }), async (position, shift) => {
          const at = position % cursor.length;
          const original = cursor[at] ?? '';
          const from = Math.max(0, alphabet.indexOf(original));
          // Shifting by 1..length-1 within the alphabet never gives back the original character.
          const replacement = alphabet[(from + 1 + shift) % alphabet.length] ?? '';
          expect(replacement).not.toBe(original);
          const tampered = cursor.slice(0, at) + replacement + cursor.slice(at + 1);
          const res = await world.call('GET', '/issues', { query: { limit: '1', cursor: tampered } });
          expect({ status: res.status, error: res.json.error }).toEqual({
            status: 400,
            error: 'invalid_cursor',
          });
        }),
        { numRuns: 100 },
      );
    });

    it('answer 400 invalid_cursor, never 500, to any made-up cursor', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }), async (madeUp) => {
          fc.pre(madeUp !== cursor);
          const res = await world.call('GET', '/issues', { query: { limit: '1', cursor: madeUp } });
          // A NUL is refused before any parameter is read, as in any query value.
          expect({ status: res.status, error: res.json.error }).toEqual({
            status: 400,
            error: madeUp.includes('\u0000') ? 'validation_failed' : 'invalid_cursor',
          });
        }),
        { numRuns: 100 },
      );
    });
  });
});
