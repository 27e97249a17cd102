import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, type World } from './support.js';

const labelNames = ['bug', 'ui', 'wontfix'];
const days = ['2026-01-10', '2026-02-01', '2026-03-15'];

/** One issue to make: its fields, the status it is moved to, whether it is archived. */
const issueSpec = fc.record({
  title: fc.constantFrom('Login fails', 'Checkout slow', 'Login slow'),
  severity: fc.constantFrom('low', 'medium', 'high'),
  labels: fc.subarray(labelNames),
  dueOn: fc.constantFrom(null, ...days),
  estimate: fc.constantFrom(null, 0, 2, 5),
  status: fc.constantFrom('open', 'blocked', 'resolved'),
  archive: fc.boolean(),
});

/** A filter written both ways: as terms of the query language and as the list's parameters. */
interface Both {
  term: string;
  params: Record<string, string>;
}

const optional = (arb: fc.Arbitrary<Both>) => fc.option(arb, { nil: undefined });

/** At most one filter of each kind, so each parameter is given once. */
const filterSpec = fc.record({
  status: optional(
    fc
      .subarray(['open', 'blocked', 'resolved'], { minLength: 1 })
      .map((s) => ({ term: `status:${s.join(',')}`, params: { status: s.join(',') } })),
  ),
  severity: optional(
    fc.constantFrom('low', 'high').map((s) => ({ term: `-severity:${s}`, params: { '-severity': s } })),
  ),
  label: optional(
    fc.oneof(
      fc.constantFrom(...labelNames).map((l) => ({ term: `label:${l}`, params: { labels: l } })),
      fc.constant({ term: 'label:bug,ui', params: { labelsAny: 'bug,ui' } }),
    ),
  ),
  notLabel: optional(
    fc.constantFrom(...labelNames).map((l) => ({ term: `-label:${l}`, params: { labelsNone: l } })),
  ),
  due: optional(
    fc.oneof(
      fc.constantFrom(...days).map((d) => ({ term: `due:<${d}`, params: { dueBefore: d } })),
      fc.constantFrom(...days).map((d) => ({ term: `due:>=${d}`, params: { dueAfter: d } })),
    ),
  ),
  estimate: optional(
    fc.constantFrom(0, 2, 5).map((n) => ({ term: `estimate:>=${n}`, params: { estimateMin: String(n) } })),
  ),
  archived: optional(fc.constant({ term: 'is:archived', params: { archived: 'only' } })),
  text: optional(fc.constantFrom('login', 'slow').map((q) => ({ term: `"${q}"`, params: { q } }))),
  sort: optional(
    fc.constantFrom(
      { term: 'sort:due-asc', params: { sort: 'dueOn' } },
      { term: 'sort:estimate', params: { sort: '-estimate' } },
      { term: 'sort:severity-asc', params: { sort: 'severity' } },
      { term: 'sort:created-asc', params: { sort: 'createdAt' } },
    ),
  ),
});

type IssueSpec = typeof issueSpec extends fc.Arbitrary<infer T> ? T : never;

async function create(world: World, spec: IssueSpec): Promise<void> {
  world.clock.advance(1);
  const { status, archive, ...body } = spec;
  const res = await world.call('POST', '/issues', {
    body: { projectId: world.ws.projectId, ...body },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.status).toBe(201);
  let version = res.json.version as number;
  if (status !== 'open') {
    const moved = await world.call('POST', `/issues/${res.json.id}/transition`, { body: { to: status } });
    expect(moved.status).toBe(200);
    version = moved.json.version;
  }
  if (archive) {
    const archived = await world.call('POST', `/issues/${res.json.id}/archive`, {
      headers: { 'if-match': `"${version}"` },
    });
    expect(archived.status).toBe(200);
  }
}

/** A list's first page (asked with `first`), then its other pages asked with `rest`: ids and total. */
async function listAll(
  world: World,
  first: Record<string, string>,
  rest: Record<string, string>,
  limit: number,
) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  do {
    const page = await world.call('GET', '/issues', {
      query: { ...(cursor ? rest : first), limit: String(limit), ...(cursor ? { cursor } : {}) },
    });
    expect(page.status, JSON.stringify(page.json)).toBe(200);
    total ??= page.json.total;
    ids.push(...page.json.data.map((issue: { id: string }) => issue.id));
    cursor = page.json.nextCursor;
  } while (cursor !== null);
  return { ids, total };
}

describe.each(adaptersUnderTest)('the query language on $name storage', (adapter) => {
  it('lists with query= exactly what the same filters list as parameters, and their cursors are one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(issueSpec, { minLength: 1, maxLength: 8 }),
        filterSpec,
        fc.integer({ min: 1, max: 3 }),
        async (specs, filters, limit) => {
          await inWorld(adapter, async (world) => {
            for (const spec of specs) await create(world, spec);
            const chosen = Object.values(filters).filter((f): f is Both => f !== undefined);
            const query = { query: chosen.map((f) => f.term).join(' ') };
            const params = Object.assign({}, ...chosen.map((f) => f.params)) as Record<string, string>;
            const byParams = await listAll(world, params, params, limit);
            expect(await listAll(world, query, query, limit)).toEqual(byParams);
            // A page of the query goes on with the parameters (and back): one filter, one cursor.
            expect(await listAll(world, query, params, limit)).toEqual(byParams);
            expect(await listAll(world, params, query, limit)).toEqual(byParams);
          });
        },
      ),
      { numRuns: runsOn(adapter, 25) },
    );
  });
});
