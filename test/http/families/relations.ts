import { expect, it } from 'vitest';
import type { TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths, type Json } from './answers.js';
import { createIssue, mainTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Issue relations: stored once, read from both ends, no cycles, one parent. */
export function runRelationSuite(target: Target): void {
  describeThrough(target, 'issue relations', (server) => {
    const relate = (s: TestServer, from: Json, type: string, to: Json) =>
      client(s).post(`/issues/${from.id}/relations`, { type, issueId: to.id });
    const related = async (s: TestServer, from: Json, type: string, to: Json) =>
      expectJson(await relate(s, from, type, to), 201);
    const issues = async (s: TestServer, n: number) => {
      const made: Json[] = [];
      for (let i = 0; i < n; i++) made.push(await createIssue(s, mainTenant(s), { title: `Issue ${i}` }));
      return made;
    };
    const read = async (s: TestServer, issue: Json) =>
      expectJson(await client(s).get(`/issues/${issue.id}`), 200);
    const relationsOf = async (s: TestServer, issue: Json) =>
      (await client(s).list(`/issues/${issue.id}/relations?limit=200`)).data as Json[];

    it('stores a relation once and reads it from both ends with the inverse type', async () => {
      const s = server();
      const [a, b] = await issues(s, 2);
      const pairs: [string, string][] = [
        ['blocked_by', 'blocks'],
        ['duplicates', 'duplicate_of'],
        ['relates_to', 'relates_to'],
        ['child_of', 'parent_of'],
      ];
      for (const [type, inverse] of pairs) {
        const before = (await signalsOf(s)).length;
        const made = await related(s, a, type, b);
        expect(made).toMatchObject({ type, issueId: b.id, version: 1 });
        const fromB = (await relationsOf(s, b)).find((r) => r.id === made.id);
        expect(fromB).toMatchObject({ type: inverse, issueId: a.id });
        const [event] = (await signalsOf(s)).slice(before) as Json[];
        expect(event.type).toBe('issue_relation.created');
        // Stored under the type of the pair that reads from source to target.
        const storedAs = ['blocks', 'duplicates', 'relates_to', 'parent_of'].includes(type) ? type : inverse;
        const [sourceId, targetId] = storedAs === type ? [a.id, b.id] : [b.id, a.id];
        expect(event.data.object).toMatchObject({ id: made.id, type: storedAs, sourceId, targetId });
      }
      expect(await relationsOf(s, a)).toHaveLength(4);
      expect(await relationsOf(s, b)).toHaveLength(4);
      // The issue key names an issue in the path as well as its id.
      expect((await client(s).list(`/issues/${a.key}/relations`)).total).toBe(4);
    });

    it('shows parentId, blockedBy and subIssues on the issues, and lists children with ?parentId=', async () => {
      const s = server();
      const [parent, child, other, blocker] = await issues(s, 4);
      await related(s, parent, 'parent_of', child);
      await related(s, other, 'child_of', parent);
      await related(s, blocker, 'blocks', child);
      expect(await read(s, parent)).toMatchObject({ parentId: null, subIssues: 2, blockedBy: 0 });
      expect(await read(s, child)).toMatchObject({ parentId: parent.id, blockedBy: 1, subIssues: 0 });
      expect(await read(s, other)).toMatchObject({ parentId: parent.id });
      const children = await client(s).list(`/issues?parentId=${parent.id}`);
      expect([...idsOf(children)].sort()).toEqual([child.id, other.id].sort());
      expect(children.total).toBe(2);
      // Removing relations (from either end) takes the counts back.
      const childRelations = await relationsOf(s, child);
      const fromParent = childRelations.find((r) => r.type === 'child_of');
      const fromBlocker = childRelations.find((r) => r.type === 'blocked_by');
      const types = await signalTypesOf(s, async () => {
        expect((await client(s).remove(`/issues/${parent.id}/relations/${fromParent.id}`)).status).toBe(204);
        expect((await client(s).remove(`/issues/${child.id}/relations/${fromBlocker.id}`)).status).toBe(204);
      });
      expect(types).toEqual(['issue_relation.deleted', 'issue_relation.deleted']);
      expect(await read(s, child)).toMatchObject({ parentId: null, blockedBy: 0 });
      expect(await read(s, parent)).toMatchObject({ subIssues: 1 });
      expect(idsOf(await client(s).list(`/issues?parentId=${parent.id}`))).toEqual([other.id]);
      expect(await relationsOf(s, child)).toEqual([]);
    });

    it('refuses a self relation, a foreign issue, a repeated relation, a cycle and a second parent, writing nothing', async () => {
      const s = server();
      const [a, b, c, d] = await issues(s, 4);
      await related(s, a, 'blocks', b);
      await related(s, b, 'blocks', c);
      await related(s, a, 'relates_to', d);
      await related(s, a, 'parent_of', b);
      await related(s, b, 'parent_of', c);
      const types = await signalTypesOf(s, async () => {
        expectProblem(await relate(s, a, 'blocks', a), 422, 'self_relation');
        expectProblem(await relate(s, a, 'blocks', { id: s.other.issueId }), 404, 'not_found');
        expectProblem(
          await client(s).post(`/issues/${s.other.issueId}/relations`, { type: 'blocks', issueId: a.id }),
          404,
          'not_found',
        );
        expect(expectProblem(await relate(s, b, 'blocked_by', a), 422, 'relation_exists').relationId).toMatch(
          /^rel_/,
        );
        expectProblem(await relate(s, d, 'relates_to', a), 422, 'relation_exists');
        const blockCycle = expectProblem(await relate(s, c, 'blocks', a), 422, 'relation_cycle');
        expect(blockCycle.path).toEqual([c.key, a.key, b.key, c.key]);
        expectProblem(await relate(s, a, 'blocked_by', c), 422, 'relation_cycle');
        const parentCycle = expectProblem(await relate(s, c, 'parent_of', a), 422, 'relation_cycle');
        expect(parentCycle.path).toEqual([c.key, a.key, b.key, c.key]);
        expectProblem(await relate(s, d, 'parent_of', c), 422, 'second_parent');
        expectProblem(await relate(s, c, 'child_of', d), 422, 'second_parent');
        expect(issuePaths(await relate(s, a, 'depends_on', d))).toEqual(['type']);
      });
      expect(types).toEqual([]);
      // duplicates may go both ways: only blocks and parents form no cycle.
      await related(s, c, 'duplicates', a);
      await related(s, a, 'duplicates', c);
    });

    it('pages the relations of both ends oldest first, each once, with a total of all', async () => {
      const s = server();
      const [hub, ...others] = await issues(s, 6);
      const made: string[] = [];
      for (const [i, other] of others.entries()) {
        // Alternate ends: the hub is the source of some relations and the target of the others.
        const from = i % 2 === 0 ? hub : other;
        const to = i % 2 === 0 ? other : hub;
        made.push((await related(s, from, 'relates_to', to)).id);
        s.clock.advance(1000);
      }
      expect(await pageToEnd(s, `/issues/${hub.id}/relations`, 2)).toEqual(made);
      const first = await client(s).list(`/issues/${hub.id}/relations?limit=2`);
      const cursor = encodeURIComponent(first.nextCursor);
      const elsewhere = await client(s).get(`/issues/${others[0].id}/relations?cursor=${cursor}`);
      expectProblem(elsewhere, 400, 'invalid_cursor');
    });

    it('reads a relation at the Location of its create, from either end, and 404 from elsewhere', async () => {
      const s = server();
      const [a, b, c] = await issues(s, 3);
      const res = await relate(s, a, 'blocks', b);
      const made = expectJson(res, 201);
      const location = res.headers.get('location') as string;
      expect(location).toBe(`/api/v1/issues/${a.id}/relations/${made.id}`);
      const here = await client(s).get(location.replace('/api/v1', ''));
      expect(here.headers.get('etag')).toBe('"1"');
      expect(expectJson(here, 200)).toEqual(made);
      expect(expectJson(await client(s).get(`/issues/${b.key}/relations/${made.id}`), 200)).toMatchObject({
        id: made.id,
        type: 'blocked_by',
        issueId: a.id,
      });
      expectProblem(await client(s).get(`/issues/${c.id}/relations/${made.id}`), 404, 'not_found');
      expectProblem(await client(s).get(`/issues/${a.id}/relations/rel_missing`), 404, 'not_found');
    });

    it('answers 404 to a relation deleted through an issue it does not join, and to an unknown one', async () => {
      const s = server();
      const [a, b, c] = await issues(s, 3);
      const made = await related(s, a, 'blocks', b);
      expectProblem(await client(s).remove(`/issues/${c.id}/relations/${made.id}`), 404, 'not_found');
      expectProblem(await client(s).remove(`/issues/${a.id}/relations/rel_missing`), 404, 'not_found');
      expectProblem(
        await client(s).remove(`/issues/${a.id}/relations/${made.id}`, '"2"'),
        409,
        'version_conflict',
      );
      expect((await client(s).remove(`/issues/${b.id}/relations/${made.id}`, '"1"')).status).toBe(204);
      expect(await read(s, b)).toMatchObject({ blockedBy: 0 });
    });
  });
}
