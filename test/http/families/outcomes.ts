import { expect, it } from 'vitest';
import { startTime } from '../harness.js';
import { expectJson, expectProblem, issuePaths } from './answers.js';
import { runCrudContract } from './crud.js';
import { createIssue, createOutcome, createProject, mainTenant, otherTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

const at = (seconds: number) => new Date(startTime + seconds * 1000).toISOString();

/** Outcomes (CONTRACT §5): status and shippedAt, filters, references, and the guarded delete. */
export function runOutcomeSuite(target: Target): void {
  runCrudContract(target, {
    path: '/outcomes',
    idPrefix: 'out',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH', 'DELETE'],
    required: ['projectId', 'title'],
    patch: { title: 'Card payments for everyone', status: 'in_progress', ownerId: null },
    events: { created: 'outcome.created', updated: 'outcome.updated', deleted: 'outcome.deleted' },
  });

  describeThrough(target, 'outcomes', (server) => {
    it('creates an outcome planned, without owner, due date or shippedAt by default', async () => {
      const s = server();
      const outcome = await createOutcome(s, mainTenant(s));
      expect(outcome).toMatchObject({
        status: 'planned',
        description: null,
        ownerId: null,
        dueDate: null,
        shippedAt: null,
      });
    });

    it('sets shippedAt and emits outcome.updated then outcome.shipped when the status becomes shipped', async () => {
      const s = server();
      const http = client(s);
      const outcome = await createOutcome(s, mainTenant(s));
      const url = `/outcomes/${outcome.id}`;
      s.clock.advance(60_000);
      let shipped: { shippedAt: string; version: number } = { shippedAt: '', version: 0 };
      expect(
        await signalTypesOf(s, async () => {
          shipped = expectJson(await http.patch(url, { status: 'shipped' }, '"1"'), 200);
        }),
      ).toEqual(['outcome.updated', 'outcome.shipped']);
      expect(shipped.shippedAt).toBe(at(60));
      const [updated, announced] = (await signalsOf(s)).slice(-2);
      expect(updated?.data).toEqual({ object: shipped, previous: { status: 'planned', shippedAt: null } });
      expect(announced?.data).toEqual({ object: shipped });

      // Staying shipped keeps the first shippedAt and announces no second shipping.
      s.clock.advance(60_000);
      let renamed: { shippedAt: string } = { shippedAt: '' };
      expect(
        await signalTypesOf(s, async () => {
          renamed = expectJson(
            await http.patch(url, { title: 'Launched v2', status: 'shipped' }, '"2"'),
            200,
          );
        }),
      ).toEqual(['outcome.updated']);
      expect(renamed.shippedAt).toBe(at(60));

      // Leaving shipped clears it; shipping again stamps the new time.
      expect(expectJson(await http.patch(url, { status: 'in_progress' }, '"3"'), 200).shippedAt).toBeNull();
      s.clock.advance(60_000);
      expect(
        await signalTypesOf(s, async () => {
          expect(expectJson(await http.patch(url, { status: 'shipped' }, '"4"'), 200).shippedAt).toBe(
            at(180),
          );
        }),
      ).toEqual(['outcome.updated', 'outcome.shipped']);
    });

    it('emits outcome.created and outcome.shipped for an outcome created shipped', async () => {
      const s = server();
      let created: { shippedAt: string | null } = { shippedAt: null };
      const types = await signalTypesOf(s, async () => {
        created = await createOutcome(s, mainTenant(s), { status: 'shipped' });
      });
      expect(types).toEqual(['outcome.created', 'outcome.shipped']);
      expect(created.shippedAt).toBe(at(0));
    });

    it('ignores shippedAt and projectId in a PATCH: the service owns the one, the other is fixed', async () => {
      const s = server();
      const other = await createProject(s, mainTenant(s), 'Hermes');
      const outcome = await createOutcome(s, mainTenant(s));
      const res = await client(s).patch(
        `/outcomes/${outcome.id}`,
        { shippedAt: at(-3600), projectId: other.id, title: 'Renamed' },
        '"1"',
      );
      expect(expectJson(res, 200)).toMatchObject({
        projectId: s.ws.projectId,
        shippedAt: null,
        title: 'Renamed',
      });
    });

    it('filters by projectId, by status, and by q over title and description, case-insensitively', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const a = await createOutcome(s, mainTenant(s), { title: 'Faster CHECKOUT', status: 'in_progress' });
      const b = await createOutcome(s, mainTenant(s), { title: 'Onboarding', description: 'checkout hints' });
      const c = await createOutcome(s, mainTenant(s), { projectId: hermes.id, title: 'Mobile app' });
      await createOutcome(s, otherTenant(s), { title: 'Checkout for Globex' });
      const sorted = (ids: string[]) => [...ids].sort();
      expect(sorted(idsOf(await http.list(`/outcomes?projectId=${s.ws.projectId}`)))).toEqual(
        sorted([a.id, b.id]),
      );
      expect(idsOf(await http.list(`/outcomes?projectId=${hermes.id}`))).toEqual([c.id]);
      expect(idsOf(await http.list('/outcomes?status=in_progress'))).toEqual([a.id]);
      const found = await http.list('/outcomes?q=checkout');
      expect(sorted(idsOf(found))).toEqual(sorted([a.id, b.id]));
      expect(found.total).toBe(2);
      expect(idsOf(await http.list(`/outcomes?q=ONBOARD&projectId=${s.ws.projectId}`))).toEqual([b.id]);
      expect((await http.list('/outcomes?q=nothing-like-this')).total).toBe(0);
      expect(issuePaths(await http.get('/outcomes?status=done'), 'query')).toEqual(['status']);
    });

    it('matches q literally: % and _ are no wildcards, accented letters work, fewer than 3 characters are refused', async () => {
      const s = server();
      const http = client(s);
      const percent = await createOutcome(s, mainTenant(s), { title: 'Cut costs by 50%' });
      await createOutcome(s, mainTenant(s), { title: 'Cut costs by 500 euros' });
      const snake = await createOutcome(s, mainTenant(s), { title: 'Rename user_id' });
      await createOutcome(s, mainTenant(s), { title: 'Rename userXid' });
      const accented = await createOutcome(s, mainTenant(s), {
        title: 'Éclair au café',
        description: 'Pâtisserie',
      });
      const search = async (q: string) => idsOf(await http.list(`/outcomes?q=${encodeURIComponent(q)}`));
      expect(await search('50%')).toEqual([percent.id]);
      expect(await search('y 50%')).toEqual([percent.id]);
      expect(await search('r_i')).toEqual([snake.id]);
      expect(await search('r_id')).toEqual([snake.id]);
      expect(await search('éclair')).toEqual([accented.id]);
      expect(await search('CAFÉ')).toEqual([accented.id]);
      expect(await search('PÂTISS')).toEqual([accented.id]);
      expect(await search('"costs')).toEqual([]);
      // A control character is no text anyone typed: refused, never read as "match everything".
      // Fewer than 3 characters (after trimming) cannot use the search index: refused too.
      for (const q of ['\u0000', 'cost\u0000s', '\u001b[31m', '_', '0%', ' é ', 'ab  ']) {
        const res = await s.api('GET', `/api/v1/outcomes?q=${encodeURIComponent(q)}`, {
          token: s.tokens.admin,
        });
        expect(issuePaths(res, 'query'), JSON.stringify(q)).toEqual(['q']);
      }
    });

    it('answers a projectId or ownerId outside the workspace with 422 invalid_reference, writing nothing', async () => {
      const s = server();
      const http = client(s);
      const types = await signalTypesOf(s, async () => {
        for (const body of [
          { projectId: s.other.projectId, title: 'x' },
          { projectId: 'prj_doesnotexist', title: 'x' },
          { projectId: s.ws.projectId, title: 'x', ownerId: s.other.adminUserId },
        ]) {
          expectProblem(await http.post('/outcomes', body), 422, 'invalid_reference');
        }
      });
      expect(types).toEqual([]);
      expect((await http.list('/outcomes')).total).toBe(0);
      const mine = await createOutcome(s, mainTenant(s), { ownerId: s.tokens.member.userId });
      expect(mine.ownerId).toBe(s.tokens.member.userId);
      const res = await http.patch(`/outcomes/${mine.id}`, { ownerId: s.other.adminUserId }, '"1"');
      expectProblem(res, 422, 'invalid_reference');
    });

    it('lists every invalid field of a body by its path', async () => {
      const s = server();
      const res = await client(s).post('/outcomes', {
        projectId: s.ws.projectId,
        title: '',
        status: 'done',
        dueDate: '2026-02-30',
      });
      expect(issuePaths(res).sort()).toEqual(['dueDate', 'status', 'title']);
    });

    it('deletes an outcome together with its context items, each announced as context.deleted', async () => {
      const s = server();
      const http = client(s);
      const outcome = await createOutcome(s, mainTenant(s));
      const note = await http.create('/context', {
        outcomeId: outcome.id,
        kind: 'note',
        title: 'n',
        body: 'b',
      });
      const doc = await http.create('/context', {
        outcomeId: outcome.id,
        kind: 'document',
        title: 'd',
        url: 'https://docs.example.com/d',
      });
      const kept = await http.create('/context', {
        outcomeId: (await createOutcome(s, mainTenant(s))).id,
        kind: 'note',
        title: 'elsewhere',
        body: 'b',
      });
      const types = await signalTypesOf(s, async () => {
        expect((await http.remove(`/outcomes/${outcome.id}`)).status).toBe(204);
      });
      expect(types).toEqual(['context.deleted', 'context.deleted', 'outcome.deleted']);
      for (const item of [note, doc]) expectProblem(await http.get(`/context/${item.id}`), 404, 'not_found');
      expectJson(await http.get(`/context/${kept.id}`), 200);
    });

    it('refuses to delete an outcome with 409 resource_in_use, naming what refers to it, until nothing does', async () => {
      const s = server();
      const http = client(s);
      const outcome = await createOutcome(s, mainTenant(s));
      const note = await http.create('/context', {
        outcomeId: outcome.id,
        kind: 'note',
        title: 'n',
        body: 'b',
      });
      const issue = await createIssue(s, mainTenant(s), { outcomeId: outcome.id });
      const decision = await http.create('/decisions', {
        projectId: s.ws.projectId,
        title: 'Use Stripe',
        rationale: 'fees',
        outcomeId: outcome.id,
      });
      const entry = await http.create('/time-entries', {
        outcomeId: outcome.id,
        minutes: 15,
        date: '2026-11-21',
      });

      const refused = async (references: Record<string, number>, names: RegExp) => {
        const types = await signalTypesOf(s, async () => {
          const problem = expectProblem(await http.remove(`/outcomes/${outcome.id}`), 409, 'resource_in_use');
          expect(problem.references).toEqual(references);
          expect(problem.detail).toMatch(names);
        });
        expect(types).toEqual([]);
        // Nothing went: not the outcome, not its context.
        expectJson(await http.get(`/outcomes/${outcome.id}`), 200);
        expectJson(await http.get(`/context/${note.id}`), 200);
      };
      await refused({ issues: 1, decisions: 1, timeEntries: 1 }, /by 1 issue, 1 decision, 1 time entry\.$/);
      expectJson(await http.patch(`/issues/${issue.id}`, { outcomeId: null }, '"1"'), 200);
      await refused({ issues: 0, decisions: 1, timeEntries: 1 }, /by 1 decision, 1 time entry\.$/);
      expectJson(await http.patch(`/decisions/${decision.id}`, { outcomeId: null }, '"1"'), 200);
      await refused({ issues: 0, decisions: 0, timeEntries: 1 }, /by 1 time entry\.$/);
      expect((await http.remove(`/time-entries/${entry.id}`)).status).toBe(204);
      expect((await http.remove(`/outcomes/${outcome.id}`)).status).toBe(204);
      expectProblem(await http.get(`/context/${note.id}`), 404, 'not_found');
    });
  });
}
