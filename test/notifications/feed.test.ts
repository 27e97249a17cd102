import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenancy } from '../../src/core/index.js';
import { listen } from '../http/harness.js';
import { openStream } from '../signals/event-stream.js';
import { type WebhookFixture, webhookFixture } from '../webhooks/fixture.js';

/** The feed's mechanics: paging, the read marker, `unread=true`, and the live stream. */

let f: WebhookFixture;
let watcher: { userId: string; token: string };
let issueId: string;

beforeEach(async () => {
  f = await webhookFixture();
  watcher = await f.storage.transaction(async (tx) => {
    const deps = { tx, ids: f.tracker.ids, now: f.clock.now() };
    const { user } = await tenancy.addMember(deps, {
      workspaceId: f.main.workspaceId,
      email: 'watcher@acme.test',
      role: 'viewer',
    });
    const { plain } = await tenancy.issueToken(deps, {
      workspaceId: f.main.workspaceId,
      userId: user.id,
      name: 'watcher',
      scope: 'read',
    });
    return { userId: user.id, token: plain };
  });
  issueId = (await f.api('POST', '/issues', { body: { projectId: f.main.projectId, title: 'Watched' } })).json
    .id;
  const watched = await f.api('PUT', `/issues/${issueId}/watchers/me`, { token: watcher.token });
  expect(watched.status).toBe(200);
  expect(watched.json).toEqual({ userId: watcher.userId, reason: 'manual', since: expect.any(String) });
});
afterEach(async () => {
  await f.close();
});

const comment = async (body: string) => {
  f.clock.advance(1000);
  const res = await f.api('POST', '/comments', { body: { issueId, body } });
  expect(res.status).toBe(201);
};
const feed = (query = '') => f.api('GET', `/notifications${query}`, { token: watcher.token });

describe('GET /notifications', () => {
  it('pages newest first with cursors and an exact total, naming the event and the item', async () => {
    for (let i = 0; i < 5; i++) await comment(`Note ${i}`);
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await feed(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.json.total).toBe(5);
      seen.push(...page.json.data.map((n: { sequence: number }) => n.sequence));
      cursor = page.json.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(5);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    const newest = (await feed('?limit=1')).json.data[0];
    expect(newest).toMatchObject({
      type: 'comment.created',
      kind: 'commented',
      item: { type: 'issue', id: issueId, key: 'APO-1', title: 'Watched' },
      commentId: expect.stringMatching(/^cmt_/),
      change: null,
      read: false,
    });
    // A cursor of the unread list is refused by the full list.
    const unreadPage = await feed('?unread=true&limit=1');
    expect((await feed(`?cursor=${unreadPage.json.nextCursor}`)).status).toBe(400);
  });

  it('marks read up to a sequence or an id: unread=true leaves those out, and the marker never goes back', async () => {
    for (let i = 0; i < 3; i++) await comment(`Note ${i}`);
    const all = (await feed()).json.data as { id: string; sequence: number }[];
    const [newest, middle, oldest] = all;
    if (!newest || !middle || !oldest) throw new Error('three notifications expected');
    const marked = await f.api('POST', '/notifications/read', {
      token: watcher.token,
      body: { upTo: middle.sequence },
    });
    expect(marked.status).toBe(200);
    expect(marked.json).toEqual({ readUpTo: middle.sequence, unread: 1 });
    const unread = await feed('?unread=true');
    expect(unread.json.data.map((n: { id: string }) => n.id)).toEqual([newest.id]);
    expect(unread.json.total).toBe(1);
    expect((await feed()).json.data.map((n: { read: boolean }) => n.read)).toEqual([false, true, true]);
    // Lower: nothing changes. By id: the newest, and so everything.
    const lower = await f.api('POST', '/notifications/read', {
      token: watcher.token,
      body: { upTo: oldest.sequence },
    });
    expect(lower.json.readUpTo).toBe(middle.sequence);
    const byId = await f.api('POST', '/notifications/read', {
      token: watcher.token,
      body: { upTo: newest.id },
    });
    expect(byId.json).toEqual({ readUpTo: newest.sequence, unread: 0 });
    // Far past the newest event: held at the newest, so later notifications stay unread.
    await f.api('POST', '/notifications/read', { token: watcher.token, body: { upTo: 1_000_000 } });
    await comment('After');
    expect((await feed('?unread=true')).json.total).toBe(1);
    // Another account's event id names nothing the caller may read: an invalid reference.
    const theirs = await f.api('GET', '/signals?limit=1', { token: f.other.token });
    const refused = await f.api('POST', '/notifications/read', {
      token: watcher.token,
      body: { upTo: theirs.json.data[0].id },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toBe('invalid_reference');
  });

  it('lists the watchers; an unknown or foreign issue is 404', async () => {
    const list = await f.api('GET', `/issues/${issueId}/watchers`, { token: watcher.token });
    expect(list.json.total).toBe(2);
    expect(list.json.data.map((w: { reason: string }) => w.reason)).toEqual(['creator', 'manual']);
    expect((await f.api('GET', '/issues/iss_nothing/watchers', { token: watcher.token })).status).toBe(404);
    const foreign = await f.api('POST', '/issues', {
      token: f.other.token,
      body: { projectId: f.other.projectId, title: 'Theirs' },
    });
    expect(
      (await f.api('PUT', `/issues/${foreign.json.id}/watchers/me`, { token: watcher.token })).status,
    ).toBe(404);
  });
});

describe('GET /notifications as a server-sent event stream', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeAllConnections();
    server = undefined;
  });

  it('sends unread notifications, then new ones live, and ends when the member is removed', async () => {
    await comment('Before the stream');
    const listening = await listen('node', f.tracker);
    server = listening.server;
    const url = `http://127.0.0.1:${listening.port}/api/v1/notifications?unread=true`;
    const stream = await openStream(url, watcher.token);
    expect(stream.status).toBe(200);
    const [first] = await stream.waitForEvents(1);
    expect(JSON.parse(first?.data ?? '{}')).toMatchObject({ kind: 'commented', item: { id: issueId } });
    await comment('While streaming');
    const second = (await stream.waitForEvents(2))[1];
    expect(second?.event).toBe('notification');
    expect(JSON.parse(second?.data ?? '{}').sequence).toBeGreaterThan(
      JSON.parse(first?.data ?? '{}').sequence,
    );

    const removed = await f.api('DELETE', `/members/${watcher.userId}`);
    expect(removed.status).toBe(204);
    await stream.ended();
    expect(stream.messages.at(-1)?.comment).toMatch(/^closed: 401 unauthorized/);
    expect(stream.events()).toHaveLength(2);
  });
});
