import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { type ClientFixture, clientFixture } from './harness.js';

describe('the client: an outcome summary and a webhook replay', () => {
  let f: ClientFixture;
  beforeAll(async () => {
    f = await clientFixture('in-process');
  });
  afterAll(async () => {
    await f.close();
  });

  it('reads a summary with its ETag, gets null while it is unchanged, and the new summary after a change', async () => {
    const client = createClient({ tracker: f.tracker, token: f.ws.adminToken });
    const outcome = await client.outcomes.create({ projectId: f.ws.projectId, title: 'Launch' });
    const first = await client.outcomes.summary(outcome);
    expect(first).toMatchObject({ outcomeId: outcome.id, issues: { total: 0 } });
    expect(first?.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await client.outcomes.summary(outcome.id, { ifNoneMatch: first?.etag ?? '' })).toBeNull();
    await client.issues.create({ projectId: f.ws.projectId, title: 'Work', outcomeId: outcome.id });
    const second = await client.outcomes.summary(outcome.id, { ifNoneMatch: first?.etag ?? '' });
    expect(second).toMatchObject({ issues: { total: 1, byStatus: { open: 1 } } });
  });

  it('replays a webhook and says how many deliveries it queued', async () => {
    const client = createClient({ tracker: f.tracker, token: f.ws.adminToken });
    const hook = await client.webhooks.create({
      url: 'https://hooks.example.com/in',
      eventTypes: ['issue.created'],
    });
    const after = await f.tracker.storage.transaction((tx) => tx.signals.latestSequence());
    await client.issues.create({ projectId: f.ws.projectId, title: 'Announced' });
    // Its first delivery is still waiting (no dispatcher runs here): the replay queues it anew, once.
    expect(await client.webhooks.replay(hook, { after })).toEqual({ queued: 1, nextAfter: null });
    expect(await client.webhooks.replay(hook, { after })).toEqual({ queued: 0, nextAfter: null });
    expect(await client.webhooks.replay(hook.id, { after: 0, types: ['project.created'] })).toEqual({
      queued: 0,
      nextAfter: null,
    });
  });
});
