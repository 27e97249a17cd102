import { expect, it } from 'vitest';
import type { TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths } from './answers.js';
import { runCrudContract } from './crud.js';
import { createIssue, createOutcome, createProject, mainTenant, otherTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Time entries (CONTRACT §5): minutes 1–1440, real dates, the token's user, filters and totalMinutes. */
export function runTimeEntrySuite(target: Target): void {
  runCrudContract(target, {
    path: '/time-entries',
    idPrefix: 'te',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH', 'DELETE'],
    required: ['outcomeId', 'minutes', 'date'],
    patch: { minutes: 90, date: '2026-11-21', note: 'code review' },
    events: { created: 'time_entry.created', updated: 'time_entry.updated', deleted: 'time_entry.deleted' },
  });

  describeThrough(target, 'time entries', (server) => {
    const log = (s: TestServer, fields: Record<string, unknown>, token = s.tokens.admin) =>
      client(s).create('/time-entries', { minutes: 30, date: '2026-11-20', ...fields }, token);

    it("logs time as the token's user, whatever userId the body names", async () => {
      const s = server();
      const outcome = await createOutcome(s, mainTenant(s));
      const entry = await log(s, { outcomeId: outcome.id, userId: s.ws.adminUserId }, s.tokens.member.plain);
      expect(entry.userId).toBe(s.tokens.member.userId);
      const res = await client(s).patch(
        `/time-entries/${entry.id}`,
        { userId: s.ws.adminUserId, minutes: 45 },
        '"1"',
      );
      expect(expectJson(res, 200)).toMatchObject({ userId: s.tokens.member.userId, minutes: 45 });
    });

    it('accepts 1 to 1440 whole minutes and real YYYY-MM-DD dates, and names the field of anything else', async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      for (const minutes of [1, 1440]) expect((await log(s, { outcomeId, minutes })).minutes).toBe(minutes);
      const types = await signalTypesOf(s, async () => {
        for (const minutes of [0, 1441, 1.5, -5, '30', null]) {
          const res = await http.post('/time-entries', { outcomeId, minutes, date: '2026-11-20' });
          expect(issuePaths(res)).toEqual(['minutes']);
        }
        for (const date of ['2026-02-30', '20261120', '2026-11-20T10:00:00Z', '2026-13-01', '']) {
          const res = await http.post('/time-entries', { outcomeId, minutes: 5, date });
          expect(issuePaths(res)).toEqual(['date']);
        }
        const both = await http.post('/time-entries', { outcomeId, minutes: 0, date: 'yesterday' });
        expect(issuePaths(both).sort()).toEqual(['date', 'minutes']);
      });
      expect(types).toEqual([]);
      expect(await log(s, { outcomeId, date: '2028-02-29' })).toMatchObject({ date: '2028-02-29' });
    });

    it('answers an outcome or issue outside the workspace, or an issue of another project, with 422', async () => {
      const s = server();
      const http = client(s);
      const outcome = await createOutcome(s, mainTenant(s));
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const elsewhere = await createIssue(s, mainTenant(s), { projectId: hermes.id });
      const foreignOutcome = await createOutcome(s, otherTenant(s));
      const cases: [Record<string, unknown>, string][] = [
        [{ outcomeId: foreignOutcome.id }, 'outcomeId'],
        [{ outcomeId: 'out_doesnotexist' }, 'outcomeId'],
        [{ outcomeId: outcome.id, issueId: s.other.issueId }, 'issueId'],
        [{ outcomeId: outcome.id, issueId: elsewhere.id }, 'issueId'],
      ];
      const entry = await log(s, { outcomeId: outcome.id });
      const types = await signalTypesOf(s, async () => {
        for (const [fields, field] of cases) {
          const created = await http.post('/time-entries', { minutes: 5, date: '2026-11-20', ...fields });
          expect(expectProblem(created, 422, 'invalid_reference').field).toBe(field);
          const patched = await http.patch(`/time-entries/${entry.id}`, fields, '"1"');
          expect(expectProblem(patched, 422, 'invalid_reference').field).toBe(field);
        }
      });
      expect(types).toEqual([]);
      const issue = await createIssue(s, mainTenant(s));
      expect((await log(s, { outcomeId: outcome.id, issueId: issue.id })).issueId).toBe(issue.id);
    });

    it('filters by outcomeId, issueId, userId and an inclusive from–to range, with totalMinutes over all matches', async () => {
      const s = server();
      const http = client(s);
      const first = await createOutcome(s, mainTenant(s));
      const second = await createOutcome(s, mainTenant(s));
      const issue = await createIssue(s, mainTenant(s));
      const member = s.tokens.member.plain;
      const entries = [
        await log(s, { outcomeId: first.id, minutes: 10, date: '2026-11-01' }),
        await log(s, { outcomeId: first.id, minutes: 20, date: '2026-11-10', issueId: issue.id }),
        await log(s, { outcomeId: first.id, minutes: 40, date: '2026-11-20' }, member),
        await log(s, { outcomeId: second.id, minutes: 80, date: '2026-11-30' }, member),
        await log(s, { outcomeId: second.id, minutes: 160, date: '2026-12-01', issueId: issue.id }),
      ];
      await log(
        s,
        { outcomeId: (await createOutcome(s, otherTenant(s))).id, minutes: 999 },
        s.other.adminToken,
      );
      const [a, b, c, d, e] = entries.map((x) => x.id as string);
      const check = async (query: string, ids: (string | undefined)[], totalMinutes: number) => {
        const page = await http.list(`/time-entries${query}`);
        expect([...idsOf(page)].sort()).toEqual([...ids].sort());
        expect(page).toMatchObject({ total: ids.length, totalMinutes });
      };
      await check('', [a, b, c, d, e], 310);
      await check(`?outcomeId=${first.id}`, [a, b, c], 70);
      await check(`?issueId=${issue.id}`, [b, e], 180);
      await check(`?userId=${s.tokens.member.userId}`, [c, d], 120);
      await check('?from=2026-11-10', [b, c, d, e], 300);
      await check('?to=2026-11-10', [a, b], 30);
      await check('?from=2026-11-10&to=2026-11-30', [b, c, d], 140);
      await check(`?outcomeId=${second.id}&userId=${s.ws.adminUserId}`, [e], 160);
      await check('?from=2027-01-01', [], 0);
      expect(issuePaths(await http.get('/time-entries?from=2026-11-30&to=2026-11-01'), 'query')).toEqual([
        'from',
      ]);
      expect(issuePaths(await http.get('/time-entries?to=2026-02-30'), 'query')).toEqual(['to']);
    });

    it('reports totalMinutes of every matching entry on every page, not of the page', async () => {
      const s = server();
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      for (let n = 1; n <= 7; n++) {
        await log(s, { outcomeId, minutes: n * 10 });
        s.clock.advance(1000);
      }
      const first = await client(s).list(`/time-entries?outcomeId=${outcomeId}&limit=2`);
      expect(first).toMatchObject({ total: 7, totalMinutes: 280 });
      expect(first.data).toHaveLength(2);
      const last = await client(s).list(
        `/time-entries?outcomeId=${outcomeId}&limit=5&cursor=${encodeURIComponent(first.nextCursor)}`,
      );
      expect(last).toMatchObject({ total: 7, totalMinutes: 280, nextCursor: null });
      expect(await pageToEnd(s, `/time-entries?outcomeId=${outcomeId}`, 3)).toHaveLength(7);
    });

    it('lets only the user who logged an entry, or an admin, change or delete it', async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      const entry = await log(s, { outcomeId }, s.tokens.member.plain);
      const colleague = await s.addMember('member');
      const types = await signalTypesOf(s, async () => {
        const patched = await http.patch(`/time-entries/${entry.id}`, { minutes: 1 }, '"1"', colleague.plain);
        expectProblem(patched, 403, 'forbidden');
        expectProblem(
          await http.remove(`/time-entries/${entry.id}`, null, colleague.plain),
          403,
          'forbidden',
        );
      });
      expect(types).toEqual([]);
      expectJson(
        await http.patch(`/time-entries/${entry.id}`, { minutes: 2 }, '"1"', s.tokens.member.plain),
        200,
      );
      expect((await http.remove(`/time-entries/${entry.id}`, '"2"')).status).toBe(204);
    });
  });
}
