import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SignalEvent } from '../../src/core/index.js';
import { type WebhookFixture, webhookFixture } from '../webhooks/fixture.js';

let fixture: WebhookFixture;
beforeEach(async () => {
  fixture = await webhookFixture();
});
afterEach(async () => {
  await fixture.close();
});

/** Follows nextCursor from `path` to the end and returns every item and each page's total. */
async function readAll(path: string): Promise<{ items: SignalEvent[]; totals: number[]; pages: number }> {
  const items: SignalEvent[] = [];
  const totals: number[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await fixture.api('GET', cursor === null ? path : `${path}${separator}cursor=${cursor}`);
    expect(page.status).toBe(200);
    expect(Object.keys(page.json).sort()).toEqual(['data', 'nextCursor', 'total']);
    items.push(...page.json.data);
    totals.push(page.json.total);
    cursor = page.json.nextCursor;
    pages++;
  } while (cursor !== null);
  return { items, totals, pages };
}

describe('GET /signals', () => {
  it("pages the account's events in ascending sequence with the read envelope, and nothing of another account", async () => {
    for (let i = 0; i < 7; i++) {
      fixture.clock.advance(1000);
      await fixture.createIssue(`Issue ${i}`);
      await fixture.createIssue(`Globex ${i}`, fixture.other);
    }
    const { items, totals, pages } = await readAll('/signals?limit=3');
    expect(pages).toBe(3);
    expect(items).toHaveLength(8); // the project, then seven issues
    expect(new Set(totals)).toEqual(new Set([8]));
    const sequences = items.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(8);
    expect(items.every((e) => e.accountId === fixture.main.accountId)).toBe(true);
    expect(items[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sequence: expect.any(Number),
      type: 'issue.created',
      occurredAt: '2026-11-22T10:00:01.000Z',
      accountId: fixture.main.accountId,
      workspaceId: fixture.main.workspaceId,
      actor: { userId: null, tokenId: null },
      resource: { type: 'issue', id: expect.stringMatching(/^iss_/) },
      data: { object: expect.objectContaining({ title: 'Issue 0' }) },
    });
  });

  it('starts after `after`, and filters by types and resourceId, counting only matches in total', async () => {
    const issueId = await fixture.createIssue('Tracked');
    const patched = await fixture.api('PATCH', `/issues/${issueId}`, {
      body: { severity: 'critical' },
      headers: { 'if-match': '"1"' },
    });
    expect(patched.status).toBe(200);
    await fixture.createIssue('Other');
    const all = (await readAll('/signals')).items;

    const after = await fixture.api('GET', `/signals?after=${all[1]?.sequence}`);
    expect(after.json.data.map((e: SignalEvent) => e.id)).toEqual(all.slice(2).map((e) => e.id));

    const updates = await fixture.api('GET', '/signals?types=issue.updated,project.created');
    expect(updates.json.data.map((e: SignalEvent) => e.type)).toEqual(['project.created', 'issue.updated']);
    expect(updates.json.total).toBe(2);
    // Repeated, as form encoders write arrays, or mixed with the comma form: the same answer.
    for (const query of [
      'types=issue.updated&types=project.created',
      'types=issue.updated&types=project.created,issue.updated',
    ]) {
      const repeated = await fixture.api('GET', `/signals?${query}`);
      expect(repeated.json.data, query).toEqual(updates.json.data);
    }

    const tracked = await fixture.api('GET', `/signals?resourceId=${issueId}`);
    expect(tracked.json.data.map((e: SignalEvent) => e.type)).toEqual(['issue.created', 'issue.updated']);
    expect(tracked.json.data[1].data.previous).toEqual({ severity: 'medium' });
  });

  it('refuses unknown types, unknown parameters, a bad cursor and an out-of-range limit with 400', async () => {
    for (const query of ['types=issue.exploded', 'since=1', 'limit=201', 'limit=0', 'after=-1']) {
      const refused = await fixture.api('GET', `/signals?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.json.error, query).toBe('validation_failed');
    }
    const unknown = await fixture.api('GET', '/signals?types=issue.created&types=issue.exploded');
    expect(unknown.json.issues).toEqual([
      {
        in: 'query',
        path: 'types.1',
        message: expect.stringMatching(/^unknown event type "issue.exploded": expected one of /),
      },
    ]);
    // An empty cursor is no cursor: the first page.
    expect((await fixture.api('GET', '/signals?cursor=')).status).toBe(200);
    for (const cursor of ['abc', '-1', '1.5', '9'.repeat(20), 'x'.repeat(600)]) {
      const refused = await fixture.api('GET', `/signals?cursor=${cursor}`);
      expect([refused.status, refused.json.error], cursor).toEqual([400, 'invalid_cursor']);
    }
    // A cursor is bound to the filters it was made with.
    await fixture.createIssue('One');
    await fixture.createIssue('Two');
    const first = await fixture.api('GET', '/signals?limit=1');
    const cursor = first.json.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    expect((await fixture.api('GET', `/signals?limit=1&cursor=${cursor}`)).status).toBe(200);
    for (const other of ['types=issue.created', `resourceId=${first.json.data[0].resource.id}`]) {
      const refused = await fixture.api('GET', `/signals?limit=1&cursor=${cursor}&${other}`);
      expect([refused.status, refused.json.error], other).toEqual([400, 'invalid_cursor']);
    }
  });
});
