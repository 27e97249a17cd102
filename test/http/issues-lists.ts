import { beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import type { SignalEvent } from '../../src/core/index.js';
import { failingStorage } from '../support/failing-storage.js';
import { newKey, startTime, type TestServer } from './harness.js';
import { expectJson, expectProblem, type HttpSuiteContext, iso, uuidPattern } from './suite-support.js';

/** The HTTP suite's part on the issues family: lists, and atomicity with its signals. */
export function issueLists(t: HttpSuiteContext): void {
  let s: TestServer;
  beforeEach(() => {
    s = t.server();
  });
  const { startExtra, createIssue, transition, signals, listIssues } = t;
  const { adapter } = t;

  describe('lists', () => {
    it('filters by projectId, status, severity, assigneeId and q', async () => {
      const mobile = expectJson(
        await s.api('POST', '/api/v1/projects', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': newKey() },
          body: { name: 'Mobile App' },
        }),
        201,
      );
      const login = await createIssue({
        title: 'Login fails',
        severity: 'high',
        assigneeId: s.tokens.member.userId,
      });
      const crash = await createIssue({ title: 'Crash on export', severity: 'critical' });
      const mobileLogin = await createIssue({
        title: 'Mobile login spinner',
        projectId: mobile.id,
        assigneeId: s.tokens.member.userId,
      });
      const typo = await createIssue({
        title: 'Typo',
        description: 'the LOGIN page says "Sing in"',
        severity: 'low',
      });
      expectJson(await transition(crash.id, 'in_progress'), 200);

      const ids = async (query: string) => {
        const page = await listIssues(query);
        expect(page.total).toBe(page.data.length);
        expect(page.nextCursor).toBeNull();
        return (page.data as { id: string }[]).map((i) => i.id).sort();
      };
      const sorted = (...issues: { id: string }[]) => issues.map((i) => i.id).sort();
      expect(await ids('')).toEqual(sorted(login, crash, mobileLogin, typo));
      expect(await ids(`?projectId=${mobile.id}`)).toEqual(sorted(mobileLogin));
      expect(await ids(`?projectId=${s.ws.projectId}`)).toEqual(sorted(login, crash, typo));
      expect(await ids('?status=in_progress')).toEqual(sorted(crash));
      expect(await ids('?status=open')).toEqual(sorted(login, mobileLogin, typo));
      expect(await ids('?severity=medium')).toEqual(sorted(mobileLogin));
      expect(await ids('?severity=critical')).toEqual(sorted(crash));
      expect(await ids(`?assigneeId=${s.tokens.member.userId}`)).toEqual(sorted(login, mobileLogin));
      expect(await ids('?q=login')).toEqual(sorted(login, mobileLogin, typo));
      expect(await ids(`?q=login&projectId=${s.ws.projectId}&severity=high`)).toEqual(sorted(login));
      expect(await ids('?status=closed')).toEqual([]);
    });

    it('filters by createdAfter (inclusive), createdBefore (exclusive) and updatedSince', async () => {
      const early = await createIssue({ title: 'early' });
      s.clock.advance(60_000);
      const late = await createIssue({ title: 'late' });
      s.clock.advance(60_000);
      expectJson(
        await s.api('PATCH', `/api/v1/issues/${early.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'low' },
        }),
        200,
      );
      const titles = async (query: string) =>
        ((await listIssues(query)).data as { title: string }[]).map((i) => i.title);
      const at = (ms: number) => encodeURIComponent(iso(startTime + ms));
      expect(await titles(`?createdAfter=${at(60_000)}`)).toEqual(['late']);
      expect(await titles(`?createdBefore=${at(60_000)}`)).toEqual(['early']);
      expect(await titles(`?updatedSince=${at(120_000)}`)).toEqual(['early']);
      expect(await titles(`?createdAfter=${at(0)}&createdBefore=${at(60_001)}`)).toEqual(['late', 'early']);
      expect(late.createdAt).toBe(iso(startTime + 60_000));
      // A bound finer than the stored milliseconds: 'late' (at .000) is before .0001.
      const finer = encodeURIComponent(iso(startTime + 60_000).replace('Z', '1Z'));
      expect(await titles(`?createdAfter=${finer}`)).toEqual([]);
      expect(await titles(`?createdBefore=${finer}`)).toEqual(['late', 'early']);
      expect(await titles(`?updatedSince=${finer}`)).toEqual(['early']);
    });

    it('lists issues created within one millisecond newest first, as they were created', async () => {
      // The fake clock stands still: every createdAt is the same, and the ids decide. Sent at
      // once, the creates run one after another within a millisecond or two.
      await Promise.all(Array.from({ length: 12 }, (_, i) => createIssue({ title: `Same moment ${i}` })));
      const page = await listIssues('?limit=100');
      expect(page.data.map((issue: { key: string }) => issue.key)).toEqual(
        Array.from({ length: 12 }, (_, i) => `APO-${12 - i}`),
      );
    });

    it('pages with nextCursor to the end, newest first, every item once, with a constant total', async () => {
      const created: string[] = [];
      for (let i = 0; i < 7; i++) {
        created.push((await createIssue({ title: `issue ${i}` })).id);
        s.clock.advance(1_000);
      }
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = await listIssues(query);
        expect(page.total).toBe(7);
        sizes.push(page.data.length);
        seen.push(...(page.data as { id: string }[]).map((i) => i.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(sizes).toEqual([3, 3, 1]);
      expect(seen).toEqual([...created].reverse());
    });

    it('does not shift the pages when issues are created while a client pages', async () => {
      const created: string[] = [];
      for (let i = 0; i < 5; i++) {
        created.push((await createIssue({ title: `issue ${i}` })).id);
        s.clock.advance(1_000);
      }
      const first = await listIssues('?limit=2');
      const late = await createIssue({ title: 'created while paging' });
      const second = await listIssues(`?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
      const third = await listIssues(`?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`);
      expect([first.total, second.total, third.total]).toEqual([5, 6, 6]);
      expect(third.nextCursor).toBeNull();
      const seen = [first, second, third].flatMap((p) => (p.data as { id: string }[]).map((i) => i.id));
      expect(seen).toEqual([...created].reverse());
      expect(seen).not.toContain(late.id);
    });

    it('answers an empty list with the read envelope and never shows another tenant', async () => {
      expect(await listIssues()).toEqual({ data: [], nextCursor: null, total: 0 });
      const theirs = expectJson(await s.api('GET', '/api/v1/issues', { token: s.other.adminToken }), 200);
      expect(theirs.total).toBe(1);
    });
  });

  describe('atomicity and signals', () => {
    it('leaves no partial write behind a failed create', async () => {
      await createIssue({ title: 'kept' });
      const signalsBefore = await signals();
      const listBefore = await listIssues();
      for (const body of [
        { projectId: s.other.projectId, title: 'x' },
        { projectId: s.ws.projectId, title: 'x', assigneeId: s.other.adminUserId },
        { projectId: 'prj_doesnotexist', title: 'x' },
      ]) {
        const res = await s.api('POST', '/api/v1/issues', {
          token: s.tokens.admin,
          headers: { 'Idempotency-Key': newKey() },
          body,
        });
        expectProblem(res, 422, 'invalid_reference');
      }
      expect(await signals()).toEqual(signalsBefore);
      expect(await listIssues()).toEqual(listBefore);
      // The failed creates used up no issue number either.
      expect((await createIssue({ title: 'next' })).key).toBe('APO-2');
      expect(await signals(s)).toHaveLength(signalsBefore.length + 1);
    });

    it('writes exactly one signal of the right type for each successful mutation, and none for reads', async () => {
      const base = (await signals()).length;
      const key = newKey();
      const created = await createIssue({ title: 'Signal me' }, { key, token: s.tokens.member.plain });
      // A replay, reads and a failed request write nothing.
      const replay = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.member.plain,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Signal me' },
      });
      expect(replay.status).toBe(200);
      await s.api('GET', `/api/v1/issues/${created.id}`, { token: s.tokens.admin });
      await s.api('GET', '/api/v1/issues', { token: s.tokens.admin });
      await transition(created.id, 'open');

      const updated = expectJson(
        await s.api('PATCH', `/api/v1/issues/${created.id}`, {
          token: s.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { severity: 'high', title: 'Signal me twice' },
        }),
        200,
      );
      const moved = expectJson(await transition(created.id, 'resolved'), 200);

      const events = (await signals()).slice(base);
      expect(events.map((e) => e.type)).toEqual(['issue.created', 'issue.updated', 'issue.status_changed']);
      const sequences = events.map((e) => e.sequence);
      expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
      expect(new Set(sequences).size).toBe(3);
      const [c, u, t] = events as [SignalEvent, SignalEvent, SignalEvent];
      for (const e of events) {
        expect(e.id).toMatch(uuidPattern);
        expect(e).toMatchObject({
          accountId: s.ws.accountId,
          workspaceId: s.ws.workspaceId,
          resource: { type: 'issue', id: created.id },
          occurredAt: iso(startTime),
        });
      }
      expect(c.actor).toEqual({ userId: s.tokens.member.userId, tokenId: s.tokens.member.id });
      expect(c.data).toEqual({ object: created });
      expect(u.actor).toEqual({ userId: s.ws.adminUserId, tokenId: s.ws.adminTokenId });
      expect(u.data).toEqual({ object: updated, previous: { severity: 'medium', title: 'Signal me' } });
      expect(t.data).toEqual({ object: moved, previous: { status: 'open' } });
    });

    it('carries a transition comment in the status_changed signal', async () => {
      const issue = await createIssue();
      const res = await s.api('POST', `/api/v1/issues/${issue.id}/transition`, {
        token: s.tokens.admin,
        body: { to: 'blocked', comment: 'Waiting for the vendor' },
      });
      const moved = expectJson(res, 200);
      const last = (await signals()).at(-1);
      expect(last?.type).toBe('issue.status_changed');
      expect(last?.data).toEqual({
        object: moved,
        previous: { status: 'open' },
        comment: 'Waiting for the vendor',
        commentId: expect.stringMatching(/^cmt_/),
      });
    });

    it('answers a storage failure with 500 internal_error quoting the request id, leaking nothing', async () => {
      const broken = failingStorage(adapter ? await adapter.create() : memoryStorage());
      const t = await startExtra({ storage: broken.storage });
      broken.failIssueInserts(true);
      const res = await t.api('POST', '/api/v1/issues', {
        token: t.tokens.admin,
        headers: { 'Idempotency-Key': newKey(), 'X-Request-Id': 'trace-500' },
        body: { projectId: t.ws.projectId, title: 'x' },
      });
      const problem = expectProblem(res, 500, 'internal_error');
      expect(res.headers.get('x-request-id')).toBe('trace-500');
      expect(problem.detail).toContain('trace-500');
      expect(res.text).not.toMatch(/SQLITE|secret|tracker\.db|Error:/);
      expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(0);
      broken.failIssueInserts(false);
      expect((await createIssue({}, { server: t })).key).toBe('APO-1');
      expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(1);
    });

    it('writes no signal for a refused request', async () => {
      const issue = await createIssue();
      const before = await signals();
      await s.api('POST', '/api/v1/issues', {
        token: s.tokens.viewer.plain,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'x' },
      });
      await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        body: { severity: 'low' },
      });
      await transition(issue.id, 'open');
      await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-Match': '"7"' },
        body: { severity: 'low' },
      });
      expect(await signals()).toEqual(before);
    });
  });
}
