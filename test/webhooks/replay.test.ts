import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature, type WebhookSender } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

const minute = 60_000;

/** A receiver reached in-process: up (200) or down (503), recording what it accepted. */
function switchableReceiver() {
  const state = { up: true };
  const accepted: { eventId: string; body: string; signature: string }[] = [];
  const refused: string[] = [];
  const sender: WebhookSender = {
    resolve: async () => ['93.184.215.14'],
    async send(request) {
      const eventId = request.headers['X-Service-Event-Id'] as string;
      if (!state.up) {
        refused.push(eventId);
        return { status: 503, retryAfter: null, error: null, durationMs: 1 };
      }
      accepted.push({
        eventId,
        body: request.body,
        signature: request.headers['X-Service-Signature'] as string,
      });
      return { status: 200, retryAfter: null, error: null, durationMs: 1 };
    },
  };
  return { state, accepted, refused, sender };
}

describe.each(adaptersUnderTest)('webhook replay on $name storage', (adapter) => {
  let fixture: WebhookFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  it('sends a receiver that was down for N events exactly those events again, in order, signed, once each', async () => {
    const receiver = switchableReceiver();
    const f = await webhookFixture({
      storage: await adapter.create(),
      webhooks: { sender: receiver.sender, allowPrivateTargets: true, perSubscription: 1, random: () => 0.5 },
    });
    fixture = f;
    const hook = await f.subscribe('https://hooks.example.com/in');
    const sequences = async () =>
      (await f.api('GET', '/signals', { headers: {} })).json.data.map(
        (s: { id: string; sequence: number }) => s,
      );

    await f.createIssue('Before one');
    await f.createIssue('Before two');
    await f.tracker.webhooks.dispatchDue();
    expect(receiver.accepted).toHaveLength(2);
    const deliveredBefore = receiver.accepted.map((r) => r.eventId);
    const before = await sequences();
    const lastSeen = before.at(-1).sequence;

    receiver.state.up = false;
    for (const title of ['Down one', 'Down two', 'Down three']) await f.createIssue(title);
    await f.tracker.webhooks.dispatchDue();
    const missed = (await sequences()).slice(before.length).map((s: { id: string }) => s.id);
    expect(receiver.refused).toEqual(missed);
    receiver.state.up = true;

    const replay = await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: lastSeen } });
    expect(replay.status).toBe(202);
    expect(replay.json).toEqual({ queued: 3, nextAfter: null });
    // Idempotent: the same replay again queues nothing.
    expect((await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: lastSeen } })).json).toEqual({
      queued: 0,
      nextAfter: null,
    });

    await f.tracker.webhooks.dispatchDue();
    const replayed = receiver.accepted.slice(2);
    expect(replayed.map((r) => r.eventId)).toEqual(missed);
    for (const delivery of replayed) {
      const verdict = await verifySignature({
        body: delivery.body,
        header: delivery.signature,
        secret: hook.secret,
        nowSeconds: Math.floor(f.clock.now() / 1000),
      });
      expect(verdict.ok).toBe(true);
      expect(JSON.parse(delivery.body).id).toBe(delivery.eventId);
    }

    // The deliveries that were waiting for a retry were superseded: hours later nothing more arrives.
    f.clock.advance(24 * 60 * minute);
    await f.tracker.webhooks.dispatchDue();
    expect(receiver.accepted.map((r) => r.eventId)).toEqual([...deliveredBefore, ...missed]);

    // A replay from the start sends nothing the receiver has had.
    expect((await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: 0 } })).json.queued).toBe(0);
    expect(f.errors).toEqual([]);
  });

  it('replays only the types asked for and the webhook subscribes to, up to until, and only to an admin', async () => {
    const receiver = switchableReceiver();
    const f = await webhookFixture({
      storage: await adapter.create(),
      webhooks: { sender: receiver.sender, allowPrivateTargets: true },
    });
    fixture = f;
    const hook = await f.subscribe('https://hooks.example.com/in', ['issue.created', 'issue.updated']);
    for (const title of ['One', 'Two', 'Three']) await f.createIssue(title);
    const signals = (await f.api('GET', '/signals')).json.data as { sequence: number; type: string }[];
    const issueCreated = signals.filter((s) => s.type === 'issue.created');
    const first = signals[0]?.sequence ?? 0;

    const upToSecond = await f.api('POST', `/webhooks/${hook.id}/replay`, {
      body: {
        after: first - 1,
        until: issueCreated[1]?.sequence,
        types: ['issue.created', 'project.created'],
      },
    });
    expect(upToSecond.json).toEqual({ queued: 2, nextAfter: null });
    const none = await f.api('POST', `/webhooks/${hook.id}/replay`, {
      body: { after: 0, types: ['project.created'] },
    });
    expect(none.json).toEqual({ queued: 0, nextAfter: null });

    const invalid = await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: -1 } });
    expect(invalid.status).toBe(400);
    const backwards = await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: 5, until: 4 } });
    expect(backwards.status).toBe(400);
    expect(backwards.json.issues.map((i: { path: string }) => i.path)).toEqual(['until']);
    const empty = await f.api('POST', `/webhooks/${hook.id}/replay`, { body: { after: 5, until: 5 } });
    expect(empty.json).toEqual({ queued: 0, nextAfter: null });
    const unknown = await f.api('POST', '/webhooks/wh_unknown/replay', { body: { after: 0 } });
    expect(unknown.status).toBe(404);
    const elsewhere = await f.api('POST', `/webhooks/${hook.id}/replay`, {
      token: f.other.token,
      body: { after: 0 },
    });
    expect(elsewhere.status).toBe(404);
  });
});
