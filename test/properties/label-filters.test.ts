import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, type World } from './support.js';

const alphabet = ['bug', 'ui', 'Safari', 'safari', 'é', 'needs review'];
const labels = fc.array(fc.constantFrom(...alphabet), { maxLength: 4 });
const list = fc.array(fc.constantFrom(...alphabet, 'absent'), { minLength: 1, maxLength: 3 });

interface Made {
  id: string;
  version: number;
  labels: string[];
  archived: boolean;
}

async function create(world: World, carried: string[]): Promise<Made> {
  world.clock.advance(1);
  const res = await world.call('POST', '/issues', {
    body: { projectId: world.ws.projectId, title: 'Labelled', labels: carried },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status).toBe(201);
  return { id: res.json.id, version: res.json.version, labels: carried, archived: false };
}

/** Every id of a list, page by page, with the total of the first page. */
async function listAll(world: World, query: Record<string, string>, limit: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  do {
    const page = await world.call('GET', '/issues', {
      query: { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) },
    });
    expect(page.status).toBe(200);
    total ??= page.json.total;
    ids.push(...page.json.data.map((issue: { id: string }) => issue.id));
    cursor = page.json.nextCursor;
  } while (cursor !== null);
  return { ids, total };
}

describe.each(adaptersUnderTest)('label filters through the API on $name storage', (adapter) => {
  it('list exactly the issues a naive model keeps, newest first, paged, with the exact total, after creates, relabels and archives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ labels, relabel: fc.option(labels, { nil: undefined }), archive: fc.boolean() }),
          {
            minLength: 1,
            maxLength: 10,
          },
        ),
        fc.option(list, { nil: undefined }),
        fc.option(list, { nil: undefined }),
        fc.constantFrom('false', 'true', 'only'),
        fc.integer({ min: 1, max: 4 }),
        async (specs, all, any, archived, limit) => {
          await inWorld(adapter, async (world) => {
            const made: Made[] = [];
            for (const spec of specs) made.push(await create(world, spec.labels));
            for (const [i, spec] of specs.entries()) {
              const issue = made[i] as Made;
              if (spec.relabel) {
                const res = await world.call('PATCH', `/issues/${issue.id}`, {
                  body: { labels: spec.relabel },
                  headers: { 'if-match': `"${issue.version}"` },
                });
                expect(res.status).toBe(200);
                issue.version = res.json.version;
                issue.labels = spec.relabel;
              }
              if (spec.archive) {
                const res = await world.call('POST', `/issues/${issue.id}/archive`, {
                  headers: { 'if-match': `"${issue.version}"` },
                });
                expect(res.status).toBe(200);
                issue.archived = true;
              }
            }
            const query: Record<string, string> = {
              archived,
              ...(all ? { labels: all.join(',') } : {}),
              ...(any ? { labelsAny: any.join(',') } : {}),
            };
            const expected = made
              .filter(
                (issue) =>
                  (all ?? []).every((label) => issue.labels.includes(label)) &&
                  (any === undefined || any.some((label) => issue.labels.includes(label))) &&
                  (archived === 'true' || (archived === 'only') === issue.archived),
              )
              .map((issue) => issue.id)
              .reverse();
            expect(await listAll(world, query, limit)).toEqual({ ids: expected, total: expected.length });

            // The labels list counts every issue carrying each label, archived ones included.
            const counts = new Map<string, number>();
            for (const issue of made)
              for (const label of new Set(issue.labels)) counts.set(label, (counts.get(label) ?? 0) + 1);
            const page = await world.call('GET', '/labels', { query: { limit: '200' } });
            expect(page.status).toBe(200);
            const names = [...counts.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
            expect(page.json).toEqual({
              data: names.map((name) => ({ name, issueCount: counts.get(name) })),
              nextCursor: null,
              total: names.length,
            });
          });
        },
      ),
      { numRuns: runsOn(adapter, 25) },
    );
  });
});
