import { afterEach, describe, expect, it } from 'vitest';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { type Receiver, startReceiver, type WebhookFixture, webhookFixture } from './fixture.js';

let fixture: WebhookFixture;
const receivers: Receiver[] = [];
afterEach(async () => {
  await fixture?.close();
  for (const r of receivers.splice(0)) await r.close();
});

describe('delivery bookkeeping and the subscription’s ETag', () => {
  it('keeps the version through failures, and bumps it with a webhook.updated signal when it disables', async () => {
    fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true } });
    const hook = await startReceiver(() => fixture.clock.now());
    receivers.push(hook);
    hook.answer(() => ({ status: 500 }));
    const watcher = await startReceiver(() => fixture.clock.now());
    receivers.push(watcher);
    await fixture.subscribe(watcher.url, ['webhook.updated']);
    const { id } = await fixture.subscribe(hook.url);
    await fixture.createIssue('Fails');
    await fixture.tracker.webhooks.dispatchDue();
    expect(hook.received).toHaveLength(1);

    const read = await fixture.api('GET', `/webhooks/${id}`);
    expect(read.headers.ETag).toBe('"1"');
    // The admin's PATCH with the ETag just read succeeds: the failure changed nothing they can see.
    const patched = await fixture.api('PATCH', `/webhooks/${id}`, {
      body: { description: 'still mine' },
      headers: { 'if-match': '"1"' },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.ETag).toBe('"2"');

    hook.answer(() => ({ status: 410 }));
    fixture.clock.advance(2 * 60_000);
    await fixture.tracker.webhooks.dispatchDue();
    const disabled = await fixture.api('GET', `/webhooks/${id}`);
    expect(disabled.json).toMatchObject({ status: 'disabled', disabledReason: 'gone', version: 3 });
    expect(disabled.headers.ETag).toBe('"3"');

    const signals = await fixture.api('GET', `/signals?types=webhook.updated&resourceId=${id}`);
    const last = signals.json.data.at(-1);
    expect(last).toMatchObject({
      type: 'webhook.updated',
      actor: { userId: null, tokenId: null },
      data: {
        object: { status: 'disabled', version: 3 },
        previous: { status: 'active', disabledReason: null },
      },
    });
    // Subscriptions watching webhook.updated hear of it, as of any change.
    await fixture.tracker.webhooks.dispatchDue();
    const heard = watcher.received.map((r) => JSON.parse(r.body.toString('utf8')));
    expect(heard.some((e) => e.id === last.id && e.data.object.status === 'disabled')).toBe(true);
  });
});
