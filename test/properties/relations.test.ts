import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, type World } from './support.js';

const types = [
  'blocks',
  'blocked_by',
  'relates_to',
  'duplicates',
  'duplicate_of',
  'parent_of',
  'child_of',
] as const;
type Type = (typeof types)[number];
const inverse: Record<Type, Type> = {
  blocks: 'blocked_by',
  blocked_by: 'blocks',
  relates_to: 'relates_to',
  duplicates: 'duplicate_of',
  duplicate_of: 'duplicates',
  parent_of: 'child_of',
  child_of: 'parent_of',
};
const storedTypes: readonly Type[] = ['blocks', 'relates_to', 'duplicates', 'parent_of'];

/** A relation as the model keeps it: once, source <type> target, issues by index. */
interface Edge {
  id: string;
  type: Type;
  source: number;
  target: number;
}

type Command =
  | { kind: 'add'; from: number; to: number; type: Type }
  | { kind: 'remove'; from: number; pick: number };

const issueCount = 5;
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      from: fc.nat(issueCount - 1),
      to: fc.nat(issueCount - 1),
      type: fc.constantFrom(...types),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      from: fc.nat(issueCount - 1),
      pick: fc.nat(),
    }),
  },
);

/** Whether `to` can be reached from `from` along edges of `type`. */
function reaches(edges: readonly Edge[], type: Type, from: number, to: number): boolean {
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop() as number;
    if (at === to) return true;
    for (const edge of edges) {
      if (edge.type === type && edge.source === at && !seen.has(edge.target)) {
        seen.add(edge.target);
        stack.push(edge.target);
      }
    }
  }
  return false;
}

/** What the API must answer to adding `type` from `from` to `to`, given the stored edges. */
function expectedOf(edges: readonly Edge[], from: number, to: number, type: Type): number | string {
  if (from === to) return 'self_relation';
  const [stored, source, target] = storedTypes.includes(type) ? [type, from, to] : [inverse[type], to, from];
  const same = (e: Edge) =>
    e.type === stored &&
    ((e.source === source && e.target === target) ||
      (stored === 'relates_to' && e.source === target && e.target === source));
  if (edges.some(same)) return 'relation_exists';
  if ((stored === 'blocks' || stored === 'parent_of') && reaches(edges, stored, target, source))
    return 'relation_cycle';
  if (stored === 'parent_of' && edges.some((e) => e.type === 'parent_of' && e.target === target))
    return 'second_parent';
  return 201;
}

/** Every issue's relations and fields, read through the API, against the model: both ends agree. */
async function checkAgainst(world: World, ids: string[], edges: readonly Edge[]): Promise<void> {
  const index = new Map(ids.map((id, i) => [id, i]));
  const stored: Edge[] = [];
  for (const [i, id] of ids.entries()) {
    const listed = await world.call('GET', `/issues/${id}/relations`, { query: { limit: '200' } });
    expect(listed.status).toBe(200);
    const expected = edges
      .filter((e) => e.source === i || e.target === i)
      .map((e) => ({
        id: e.id,
        type: e.source === i ? e.type : inverse[e.type],
        issueId: ids[e.target === i ? e.source : e.target],
      }));
    const got = listed.json.data.map((r: { id: string; type: Type; issueId: string }) => ({
      id: r.id,
      type: r.type,
      issueId: r.issueId,
    }));
    expect(new Set(got.map((r: { id: string }) => r.id)).size).toBe(got.length);
    expect([...got].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [...expected].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(listed.json.total).toBe(expected.length);
    for (const r of got) {
      // Read from its source end, a relation is stored as it says.
      if (storedTypes.includes(r.type))
        stored.push({ id: r.id, type: r.type, source: i, target: index.get(r.issueId) as number });
    }
    const issue = await world.call('GET', `/issues/${id}`);
    const parent = edges.find((e) => e.type === 'parent_of' && e.target === i);
    expect(issue.json).toMatchObject({
      parentId: parent ? ids[parent.source] : null,
      blockedBy: edges.filter((e) => e.type === 'blocks' && e.target === i).length,
      subIssues: edges.filter((e) => e.type === 'parent_of' && e.source === i).length,
    });
  }
  // No cycle was ever stored: no issue reaches itself along blocks or parent relations.
  for (const type of ['blocks', 'parent_of'] as const) {
    for (let i = 0; i < ids.length; i++) {
      for (const edge of stored.filter((e) => e.type === type && e.source === i)) {
        expect(reaches(stored, type, edge.target, i)).toBe(false);
      }
    }
  }
}

describe.each(adaptersUnderTest)('issue relations against a model on $name storage', (adapter) => {
  it('never store a cycle, refuse exactly what the model refuses, and agree at both ends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        await inWorld(adapter, async (world) => {
          const ids: string[] = [];
          for (let i = 0; i < issueCount; i++) {
            const res = await world.call('POST', '/issues', {
              body: { projectId: world.ws.projectId, title: `Issue ${i}` },
              headers: { 'idempotency-key': randomUUID() },
            });
            ids.push(res.json.id);
          }
          const edges: Edge[] = [];
          for (const step of commands) {
            world.clock.advance(1000);
            if (step.kind === 'add') {
              const expected = expectedOf(edges, step.from, step.to, step.type);
              const res = await world.call('POST', `/issues/${ids[step.from]}/relations`, {
                body: { type: step.type, issueId: ids[step.to] },
                headers: { 'idempotency-key': randomUUID() },
              });
              if (expected === 201) {
                expect(res.status).toBe(201);
                const [type, source, target] = storedTypes.includes(step.type)
                  ? [step.type, step.from, step.to]
                  : [inverse[step.type], step.to, step.from];
                edges.push({ id: res.json.id, type, source, target });
              } else {
                expect({ status: res.status, error: res.json.error }).toEqual({
                  status: 422,
                  error: expected,
                });
              }
            } else {
              const mine = edges.filter((e) => e.source === step.from || e.target === step.from);
              const doomed = mine[step.pick % Math.max(1, mine.length)];
              if (!doomed) continue;
              const res = await world.call('DELETE', `/issues/${ids[step.from]}/relations/${doomed.id}`);
              expect(res.status).toBe(204);
              edges.splice(edges.indexOf(doomed), 1);
            }
          }
          await checkAgainst(world, ids, edges);
        });
      }),
      { numRuns: runsOn(adapter, 20) },
    );
  }, 300_000);
});
