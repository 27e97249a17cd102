import { expect, it } from 'vitest';
import type { TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths } from './answers.js';
import { createIssue, createOutcome, mainTenant } from './fixtures.js';
import { idsOf, pageToEnd } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Archive and unarchive of issues and outcomes: left out of lists unless asked for, If-Match required. */
export function runArchiveSuite(target: Target): void {
  describeThrough(target, 'archive', (server) => {
    const post = (s: TestServer, path: string, ifMatch: string | null) =>
      s.api('POST', `/api/v1${path}`, {
        token: s.tokens.admin,
        headers: ifMatch === null ? {} : { 'If-Match': ifMatch },
      });
    const families = [
      { path: '/issues', noun: 'issue', make: (s: TestServer) => createIssue(s, mainTenant(s)) },
      { path: '/outcomes', noun: 'outcome', make: (s: TestServer) => createOutcome(s, mainTenant(s)) },
    ];

    for (const { path, noun, make } of families) {
      it(`archives and brings back ${noun}s with If-Match, one event each, and lists them only when asked`, async () => {
        const s = server();
        const made = [];
        for (let i = 0; i < 5; i++) {
          made.push(await make(s));
          s.clock.advance(1000);
        }
        const [a, b, c, d, e] = made.map((item) => item.id as string);
        const types = await signalTypesOf(s, async () => {
          expectProblem(await post(s, `${path}/${a}/archive`, null), 428, 'precondition_required');
          expectProblem(await post(s, `${path}/${a}/archive`, '"2"'), 409, 'version_conflict');
          const archived = expectJson(await post(s, `${path}/${a}/archive`, '"1"'), 200);
          expect(archived).toMatchObject({ archivedAt: archived.updatedAt, version: 2 });
          expectJson(await post(s, `${path}/${c}/archive`, '"1"'), 200);
          // Archiving again changes nothing.
          expect(expectJson(await post(s, `${path}/${c}/archive`, '"2"'), 200).version).toBe(2);
        });
        expect(types).toEqual([`${noun}.archived`, `${noun}.archived`]);
        expect(await pageToEnd(s, path, 2)).toEqual(expect.arrayContaining([b, d, e]));
        expect((await client(s).list(path)).data.map((x: { id: string }) => x.id)).not.toContain(a);
        expect((await client(s).list(path)).total).toBe(
          (await client(s).list(`${path}?archived=true`)).total - 2,
        );
        expect(await pageToEnd(s, `${path}?archived=only`, 1)).toEqual([c, a]);
        expect(idsOf(await client(s).list(`${path}?archived=true&limit=200`))).toEqual(
          expect.arrayContaining([a, b, c, d, e]),
        );
        // An archived item is still read by id.
        expect(expectJson(await client(s).get(`${path}/${a}`), 200).archivedAt).not.toBeNull();
        const back = await signalTypesOf(s, async () => {
          const restored = expectJson(await post(s, `${path}/${a}/unarchive`, '"2"'), 200);
          expect(restored).toMatchObject({ archivedAt: null, version: 3 });
        });
        expect(back).toEqual([`${noun}.unarchived`]);
        expect(await pageToEnd(s, `${path}?archived=only`, 1)).toEqual([c]);
        const first = await client(s).list(`${path}?limit=1`);
        const reused = await client(s).get(
          `${path}?limit=1&archived=true&cursor=${encodeURIComponent(first.nextCursor)}`,
        );
        expectProblem(reused, 400, 'invalid_cursor');
        expect(issuePaths(await client(s).get(`${path}?archived=yes`), 'query')).toEqual(['archived']);
      });
    }

    it('keeps a filtered list and its total without the archived issues', async () => {
      const s = server();
      const open = await createIssue(s, mainTenant(s), { severity: 'high' });
      const archived = await createIssue(s, mainTenant(s), { severity: 'high' });
      await createIssue(s, mainTenant(s), { severity: 'low' });
      expectJson(await post(s, `/issues/${archived.id}/archive`, '"1"'), 200);
      const high = await client(s).list('/issues?severity=high');
      expect({ ids: idsOf(high), total: high.total }).toEqual({ ids: [open.id], total: 1 });
      const both = await client(s).list('/issues?severity=high&archived=true');
      expect(both.total).toBe(2);
      const only = await client(s).list('/issues?severity=high&archived=only');
      expect({ ids: idsOf(only), total: only.total }).toEqual({ ids: [archived.id], total: 1 });
    });
  });
}
