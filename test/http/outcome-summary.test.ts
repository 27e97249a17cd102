import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Host, startServer, type TestServer } from './harness.js';

describe.each(['node', 'hono'] as Host[])('GET /outcomes/{id}/summary through the %s host', (host) => {
  let s: TestServer;
  afterEach(async () => {
    await s?.close();
  });

  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    s.api(method, `/api/v1${path}`, {
      token: s.tokens.admin,
      ...(body !== undefined ? { body } : {}),
      headers:
        method === 'POST' && !path.includes('/transition')
          ? { 'idempotency-key': randomUUID(), ...headers }
          : headers,
    });
  const create = async (path: string, body: unknown) => {
    const res = await api('POST', path, body);
    expect(res.status, res.text).toBe(201);
    return res.json;
  };

  it('answers 304 while nothing it counts changes, and a new ETag after any counted write', async () => {
    s = await startServer(host, { rateLimit: false });
    const outcome = await create('/outcomes', { projectId: s.ws.projectId, title: 'Launch' });
    const other = await create('/outcomes', { projectId: s.ws.projectId, title: 'Elsewhere' });
    const path = `/outcomes/${outcome.id}/summary`;
    const read = async () => {
      const res = await api('GET', path);
      expect(res.status).toBe(200);
      return { etag: res.headers.get('etag') ?? '', json: res.json };
    };
    const unchanged = async (etag: string, sent = etag) => {
      const res = await api('GET', path, undefined, { 'if-none-match': sent });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.text).toBe('');
    };

    let current = await read();
    expect(current.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(current.json.issues.total).toBe(0);
    await unchanged(current.etag);
    await unchanged(current.etag, `W/${current.etag}`);

    // Writes elsewhere: another outcome's issue and time, an issue with no outcome, a project renamed.
    const elsewhere = await create('/issues', {
      projectId: s.ws.projectId,
      title: 'Other',
      outcomeId: other.id,
    });
    await create('/issues', { projectId: s.ws.projectId, title: 'Loose' });
    await create('/time-entries', { outcomeId: other.id, minutes: 30, date: '2026-11-20' });
    await api('POST', `/issues/${elsewhere.id}/transition`, { to: 'blocked' });
    const project = await api('GET', `/projects/${s.ws.projectId}`);
    await api(
      'PATCH',
      `/projects/${s.ws.projectId}`,
      { name: 'Renamed' },
      { 'if-match': project.headers.get('etag') ?? '' },
    );
    await unchanged(current.etag);

    // Each counted write gives a new ETag, and the old one no longer answers 304.
    const counted: (() => Promise<unknown>)[] = [];
    let issueId = '';
    counted.push(async () => {
      issueId = (
        await create('/issues', { projectId: s.ws.projectId, title: 'Counted', outcomeId: outcome.id })
      ).id;
    });
    counted.push(() => api('POST', `/issues/${issueId}/transition`, { to: 'blocked' }));
    counted.push(() => create('/time-entries', { outcomeId: outcome.id, minutes: 45, date: '2026-11-23' }));
    counted.push(() =>
      create('/decisions', {
        projectId: s.ws.projectId,
        title: 'Go',
        rationale: 'Ready',
        outcomeId: outcome.id,
      }),
    );
    counted.push(async () => {
      const issue = await api('GET', `/issues/${elsewhere.id}`);
      await api(
        'PATCH',
        `/issues/${elsewhere.id}`,
        { outcomeId: outcome.id },
        { 'if-match': issue.headers.get('etag') ?? '' },
      );
    });
    const seen = new Set([current.etag]);
    for (const write of counted) {
      s.clock.advance(1000);
      await write();
      const next = await read();
      expect(seen.has(next.etag)).toBe(false);
      seen.add(next.etag);
      const stale = await api('GET', path, undefined, { 'if-none-match': current.etag });
      expect(stale.status).toBe(200);
      current = next;
      await unchanged(current.etag);
    }
    expect(current.json).toMatchObject({
      issues: { total: 2, byStatus: { blocked: 2 } },
      openBlockers: { total: 2 },
      time: { totalMinutes: 45, byWeek: { '2026-W48': 45 }, byUser: { [s.ws.adminUserId]: 45 } },
      decisions: { total: 1, byStatus: { proposed: 1 } },
    });
  });

  it('is 404 for an unknown outcome and for another workspace’s, and readable with a read token', async () => {
    s = await startServer(host, { rateLimit: false });
    const outcome = await create('/outcomes', { projectId: s.ws.projectId, title: 'Launch' });
    expect((await api('GET', '/outcomes/out_unknown/summary')).status).toBe(404);
    const read = await s.api('GET', `/api/v1/outcomes/${outcome.id}/summary`, { token: s.tokens.read.plain });
    expect(read.status).toBe(200);
    const foreign = await s.api('GET', `/api/v1/outcomes/${outcome.id}/summary`, {
      token: s.other.adminToken,
    });
    expect(foreign.status).toBe(404);
  });
});
