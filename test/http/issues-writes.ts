import { beforeEach, describe, expect, it } from 'vitest';
import { newKey, startTime, type TestServer } from './harness.js';
import { expectJson, expectProblem, type HttpSuiteContext, iso } from './suite-support.js';

/** The HTTP suite's part on the issues family: creating (201, replay 200), updating, transitions, numbers and keys. */
export function issueWrites(t: HttpSuiteContext): void {
  let s: TestServer;
  beforeEach(() => {
    s = t.server();
  });
  const { startExtra, createIssue, transition, signals, listIssues } = t;

  describe('creating issues (201, idempotent replay 200)', () => {
    it('answers a first create with 201, an ETag and the issue with its defaults', async () => {
      const res = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.member.plain,
        headers: { 'Idempotency-Key': newKey() },
        body: { projectId: s.ws.projectId, title: 'Login fails on Safari' },
      });
      const issue = expectJson(res, 201);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(issue).toEqual({
        id: expect.stringMatching(/^iss_[0-9A-Za-z]+$/),
        projectId: s.ws.projectId,
        number: 1,
        key: 'APO-1',
        title: 'Login fails on Safari',
        description: null,
        severity: 'medium',
        status: 'open',
        outcomeId: null,
        assigneeId: null,
        labels: [],
        resolvedAt: null,
        commentCount: 0,
        parentId: null,
        blockedBy: 0,
        subIssues: 0,
        archivedAt: null,
        external: null,
        dueOn: null,
        estimate: null,
        createdAt: iso(startTime),
        updatedAt: iso(startTime),
        version: 1,
      });
    });

    it('replays the same key and body with 200, Idempotent-Replayed: true and the 201 body, creating nothing', async () => {
      const key = newKey();
      const first = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Crash on save', severity: 'high' },
      });
      expectJson(first, 201);
      s.clock.advance(5_000);
      // The same body with its keys in another order is the same request.
      const replay = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { severity: 'high', title: 'Crash on save', projectId: s.ws.projectId },
      });
      expectJson(replay, 200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
      const list = await listIssues();
      expect(list.total).toBe(1);
      expect((await signals()).filter((e) => e.type === 'issue.created')).toHaveLength(1);
    });

    it('replays the answer as first sent after the issue changed, its signal kept as long as the key even under a shorter retention', async () => {
      const replayAfterChange = async (t: TestServer) => {
        const key = newKey();
        const body = { projectId: t.ws.projectId, title: 'First title' };
        const first = await t.api('POST', '/api/v1/issues', {
          token: t.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body,
        });
        const created = expectJson(first, 201);
        const patched = await t.api('PATCH', `/api/v1/issues/${created.id}`, {
          token: t.tokens.admin,
          headers: { 'If-Match': '"1"' },
          body: { title: 'Second title' },
        });
        expectJson(patched, 200);
        // Past the retention asked for below, within the key's 24 hours.
        t.clock.advance(23 * 60 * 60 * 1000);
        await t.tracker.purgeExpired();
        const replay = await t.api('POST', '/api/v1/issues', {
          token: t.tokens.admin,
          headers: { 'Idempotency-Key': key },
          body,
        });
        expectJson(replay, 200);
        expect(replay.text).toBe(first.text);
        expect(replay.headers.get('location')).toBe(first.headers.get('location'));
        const record = await t.storage.transaction((tx) => tx.idempotency.get(t.ws.workspaceId, key));
        const createdSignal = (await signals(t)).find((e) => e.type === 'issue.created');
        // The key refers to the issue.created signal for its answer instead of storing it again.
        expect(record?.body).toEqual({ signalId: createdSignal?.id });
      };
      await replayAfterChange(s);
      await replayAfterChange(await startExtra({ signalRetentionMs: 60 * 60 * 1000 }));
    });

    it('keeps signals an hour longer than keys, whatever retention is asked for', async () => {
      const t = await startExtra({ signalRetentionMs: 60 * 1000 });
      await createIssue({}, { server: t });
      t.clock.advance(25 * 60 * 60 * 1000 - 1);
      expect((await t.tracker.purgeExpired()).signals).toBe(0);
      t.clock.advance(2);
      expect((await t.tracker.purgeExpired()).signals).toBeGreaterThan(0);
      expect((await signals(t)).filter((e) => e.type === 'issue.created')).toHaveLength(0);
    });

    it('ignores the fields the service owns in a create body', async () => {
      const issue = await createIssue({
        status: 'closed',
        number: 99,
        key: 'ZZZ-9',
        resolvedAt: '2020-01-01T00:00:00.000Z',
        id: 'iss_chosenbyclient',
        version: 7,
      });
      expect(issue).toMatchObject({
        status: 'open',
        number: 1,
        key: 'APO-1',
        resolvedAt: null,
        version: 1,
      });
      expect(issue.id).not.toBe('iss_chosenbyclient');
    });

    it('creates exactly one issue for concurrent duplicates with one Idempotency-Key', async () => {
      const key = newKey();
      const responses = await Promise.all(
        Array.from({ length: 5 }, () =>
          s.api('POST', '/api/v1/issues', {
            token: s.tokens.admin,
            headers: { 'Idempotency-Key': key },
            body: { projectId: s.ws.projectId, title: 'Double click' },
          }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
      const created = responses.find((r) => r.status === 201);
      for (const r of responses) expect(r.text).toBe(created?.text);
      expect((await listIssues()).total).toBe(1);
    });

    it('replays a key for 24 hours and forgets it afterwards', async () => {
      const key = newKey();
      const first = await createIssue({ title: 'Daily' }, { key });
      s.clock.advance(24 * 60 * 60 * 1000 - 1);
      const replay = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Daily' },
      });
      expect(expectJson(replay, 200).id).toBe(first.id);
      s.clock.advance(2);
      const again = await createIssue({ title: 'Daily' }, { key });
      expect(again.id).not.toBe(first.id);
      expect(again.key).toBe('APO-2');
    });

    it('answers a key reused on another endpoint with idempotency_key_reused', async () => {
      const key = newKey();
      await createIssue({}, { key });
      const res = await s.api('POST', '/api/v1/projects', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { name: 'Gemini' },
      });
      expectProblem(res, 422, 'idempotency_key_reused');
      const projects = expectJson(await s.api('GET', '/api/v1/projects', { token: s.tokens.admin }), 200);
      expect(projects.total).toBe(1);
    });

    it('counts the query in the request a key names: the same create with a query the route refuses is no replay', async () => {
      const key = newKey();
      const first = await createIssue({ title: 'Queried' }, { key });
      const withQuery = await s.api('POST', '/api/v1/issues?x=1', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Queried' },
      });
      expectProblem(withQuery, 422, 'idempotency_key_reused');
      // Without it, the same request is the first one again, and replays.
      const replay = await s.api('POST', '/api/v1/issues', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Queried' },
      });
      expect(expectJson(replay, 200).id).toBe(first.id);
    });

    it('judges the key before the body: a reused key is 422 even where its body would not validate', async () => {
      const key = newKey();
      await createIssue({ severity: 'high' }, { key });
      // The issue's body on /outcomes: `severity` is no outcome field, yet the key decides first.
      const res = await s.api('POST', '/api/v1/outcomes', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.ws.projectId, title: 'Login fails on Safari', severity: 'high' },
      });
      expectProblem(res, 422, 'idempotency_key_reused');
      const outcomes = expectJson(await s.api('GET', '/api/v1/outcomes', { token: s.tokens.admin }), 200);
      expect(outcomes.total).toBe(0);
    });

    it('lets another workspace use the same Idempotency-Key for its own create', async () => {
      const key = newKey();
      const mine = await createIssue({}, { key });
      const theirs = await s.api('POST', '/api/v1/issues', {
        token: s.other.adminToken,
        headers: { 'Idempotency-Key': key },
        body: { projectId: s.other.projectId, title: 'Login fails on Safari' },
      });
      const created = expectJson(theirs, 201);
      expect(created.id).not.toBe(mine.id);
      expect(created.projectId).toBe(s.other.projectId);
    });
  });

  describe('updating issues', () => {
    it('applies a PATCH, bumps the version and ETag, and ignores status in the body', async () => {
      const issue = await createIssue();
      s.clock.advance(60_000);
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.member.plain,
        headers: { 'If-Match': '"1"' },
        body: { severity: 'critical', status: 'closed', labels: ['ios'] },
      });
      const updated = expectJson(res, 200);
      expect(res.headers.get('etag')).toBe('"2"');
      expect(updated).toEqual({
        ...issue,
        severity: 'critical',
        labels: ['ios'],
        status: 'open',
        version: 2,
        updatedAt: iso(startTime + 60_000),
      });
    });

    it('answers a PATCH carrying only status with the unchanged issue, the same version and no signal', async () => {
      const issue = await createIssue();
      const before = await signals();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.id}`, {
        token: s.tokens.admin,
        headers: { 'If-Match': '"1"' },
        body: { status: 'resolved' },
      });
      expect(expectJson(res, 200)).toEqual(issue);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(await signals()).toEqual(before);
    });

    it('accepts If-Match: * and a PATCH addressed by the issue key', async () => {
      const issue = await createIssue();
      const res = await s.api('PATCH', `/api/v1/issues/${issue.key}`, {
        token: s.tokens.admin,
        headers: { 'If-Match': '*' },
        body: { title: 'By key' },
      });
      expect(expectJson(res, 200)).toMatchObject({ id: issue.id, title: 'By key', version: 2 });
    });
  });

  describe('transitions', () => {
    it('sets resolvedAt on entering resolved and clears it on leaving', async () => {
      const issue = await createIssue();
      s.clock.advance(90_000);
      const resolved = await transition(issue.id, 'resolved');
      expect(expectJson(resolved, 200)).toMatchObject({
        status: 'resolved',
        resolvedAt: iso(startTime + 90_000),
        updatedAt: iso(startTime + 90_000),
        version: 2,
      });
      expect(resolved.headers.get('etag')).toBe('"2"');
      s.clock.advance(1_000);
      expect(expectJson(await transition(issue.id, 'open'), 200)).toMatchObject({
        status: 'open',
        resolvedAt: null,
        version: 3,
      });
      expectJson(await transition(issue.id, 'resolved'), 200);
      expect(expectJson(await transition(issue.id, 'closed'), 200)).toMatchObject({
        status: 'closed',
        resolvedAt: null,
        version: 5,
      });
    });

    it('replays a transition sent again with the same Idempotency-Key without a second change', async () => {
      const issue = await createIssue();
      const key = newKey();
      const first = await transition(issue.id, 'blocked', { 'Idempotency-Key': key });
      expectJson(first, 200);
      const again = await transition(issue.id, 'blocked', { 'Idempotency-Key': key });
      expectJson(again, 200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect((await signals()).filter((e) => e.type === 'issue.status_changed')).toHaveLength(1);
    });
  });

  describe('numbers and keys', () => {
    it('numbers issues per project and finds an issue by its key', async () => {
      const projectRes = await s.api('POST', '/api/v1/projects', {
        token: s.tokens.admin,
        headers: { 'Idempotency-Key': newKey() },
        body: { name: 'Mobile App' },
      });
      const mobile = expectJson(projectRes, 201);
      expect(mobile.key).toBe('MA');
      const a1 = await createIssue({ title: 'a1' });
      const a2 = await createIssue({ title: 'a2' });
      const m1 = await createIssue({ title: 'm1', projectId: mobile.id });
      const a3 = await createIssue({ title: 'a3' });
      expect([a1, a2, m1, a3].map((i) => [i.number, i.key])).toEqual([
        [1, 'APO-1'],
        [2, 'APO-2'],
        [1, 'MA-1'],
        [3, 'APO-3'],
      ]);
      const byKey = await s.api('GET', '/api/v1/issues/APO-1', { token: s.tokens.admin });
      expect(expectJson(byKey, 200)).toEqual(a1);
      expect(byKey.headers.get('etag')).toBe('"1"');
      expect(expectJson(await s.api('GET', '/api/v1/issues/MA-1', { token: s.tokens.admin }), 200)).toEqual(
        m1,
      );
      // The other tenant's APO-1 is its own issue.
      expect(
        expectJson(await s.api('GET', '/api/v1/issues/APO-1', { token: s.other.adminToken }), 200).id,
      ).toBe(s.other.issueId);
    });
  });
}
