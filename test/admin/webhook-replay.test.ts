import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { type Host, startServer, type TestServer } from '../http/harness.js';
import { recordingReceiver } from '../webhooks/recording-receiver.js';
import { csrfOf, FormClient, setPassword, testPassword } from './form-client.js';

describe.each(['node', 'hono'] as Host[])('webhook replay through the %s host', (host) => {
  let server: TestServer;
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const close of closers.splice(0)) await close();
  });

  /** A webhook on a receiver that was down for two issues, which the dispatcher failed to send. */
  async function missedTwo() {
    server = await startServer(host, {
      rateLimit: false,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    const hook = await recordingReceiver();
    closers.push(hook.close);
    const created = await server.api('POST', '/api/v1/webhooks', {
      token: server.tokens.admin,
      body: { url: hook.url, eventTypes: ['issue.created'] },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(created.status).toBe(201);
    const signals = await server.api('GET', '/api/v1/signals', { token: server.tokens.admin });
    const after: number = signals.json.data.at(-1).sequence;
    hook.answer(503);
    for (const title of ['Missed one', 'Missed two']) {
      const issue = await server.api('POST', '/api/v1/issues', {
        token: server.tokens.admin,
        body: { projectId: server.ws.projectId, title },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(issue.status).toBe(201);
    }
    await server.tracker.webhooks.dispatchDue();
    expect(hook.received).toHaveLength(2);
    hook.answer(200);
    return { hook, webhookId: created.json.id as string, after };
  }

  it('answers POST /webhooks/{id}/replay 202 with the count, to admins only', async () => {
    const { hook, webhookId, after } = await missedTwo();
    const path = `/api/v1/webhooks/${webhookId}/replay`;
    for (const token of [server.tokens.member.plain, server.tokens.read.plain]) {
      expect((await server.api('POST', path, { token, body: { after } })).status).toBe(403);
    }
    const replayed = await server.api('POST', path, { token: server.tokens.admin, body: { after } });
    expect(replayed.status).toBe(202);
    expect(replayed.json).toEqual({ queued: 2, nextAfter: null });
    await server.tracker.webhooks.dispatchDue();
    const ids = hook.received.map((r) => r.headers['x-service-event-id']);
    // The same two events again, under their ids; the first sends ran side by side, so in either order.
    expect(ids).toHaveLength(4);
    expect(ids.slice(2).sort()).toEqual(ids.slice(0, 2).sort());
  });

  it('has a Replay action on the webhook page, which says how many deliveries it queued', async () => {
    const { hook, webhookId, after } = await missedTwo();
    await setPassword(server, 'admin@acme.test');
    const browser = new FormClient(server.url);
    expect((await browser.signIn('admin@acme.test', testPassword)).status).toBe(303);
    const path = `/acme/admin/webhooks/${webhookId}`;
    const page = await browser.get(path);
    expect(page.text).toContain(`action="${path}/replay"`);
    const send = async (fields: Record<string, string>) =>
      browser.send(
        'POST',
        `${path}/replay`,
        new URLSearchParams({ csrf: csrfOf(await browser.get(path)), ...fields }).toString(),
      );
    const replayed = await send({ after: String(after), until: '' });
    expect(replayed.status).toBe(303);
    expect((await browser.get(replayed.location ?? '')).text).toContain(
      'Replay queued 2 deliveries: the dispatcher sends them oldest first, several at a time, so a receiver may get them in another order.',
    );
    const again = await send({ after: String(after) });
    expect((await browser.get(again.location ?? '')).text).toContain('Nothing to replay');
    const wrong = await send({ after: 'yesterday' });
    expect(wrong.status).toBe(400);
    await server.tracker.webhooks.dispatchDue();
    expect(hook.received).toHaveLength(4);
  });
});
