import net from 'node:net';
import tls from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../src/client/index.js';
import { createTestTracker, type TestTracker } from '../../src/testing/index.js';

let kit: TestTracker | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await kit?.close();
  kit = undefined;
});

describe('webhooks captured in memory', () => {
  it('delivers through the in-memory network: no socket is opened and private targets stay refused', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const tlsConnect = vi.spyOn(tls, 'connect');
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture({ eventTypes: ['project.created'] });
    await kit.client.projects.create({ name: 'Apollo' });
    const delivery = await hook.waitFor('project.created');
    expect(delivery).toMatchObject({ attempt: 1, status: 200, receivedAt: kit.clock.now() });
    expect(hook.url).toMatch(/^https:\/\/webhooks\.outcome-tracker\.test\//);
    expect(connect).not.toHaveBeenCalled();
    expect(tlsConnect).not.toHaveBeenCalled();
    // The SSRF guard is on as in production: a loopback URL is still refused.
    const refused = await kit.client.webhooks
      .create({ url: 'http://127.0.0.1:9/hook', eventTypes: ['*'] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
  });

  it('signs deliveries as real ones: they verify with the client’s verifyWebhook, and a changed byte does not', async () => {
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture({ eventTypes: ['issue.created'] });
    const project = await kit.client.projects.create({ name: 'Apollo' });
    const issue = await kit.client.issues.create({ projectId: project.id, title: 'Signed' });
    const delivery = await hook.waitFor('issue.created');

    const event = await verifyWebhook(delivery.body, delivery.headers, hook.secret, { now: kit.clock.now });
    expect(event).toMatchObject({ id: delivery.id, type: 'issue.created' });
    expect(JSON.stringify(event.data)).toContain(issue.id);
    expect(await hook.verify(delivery)).toEqual(event);
    expect(delivery.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const tampered = delivery.body.replace('Signed', 'Forged');
    await expect(
      verifyWebhook(tampered, delivery.headers, hook.secret, { now: kit.clock.now }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(hook.verify({ ...delivery, body: tampered })).rejects.toMatchObject({
      reason: 'no_matching_signature',
    });
  });

  it('signs Standard Webhooks deliveries that the standardwebhooks package verifies, retries signed anew at their time', async () => {
    kit = await createTestTracker({ now: Date.now() });
    const hook = await kit.webhooks.capture({ eventTypes: ['project.created'], signatureScheme: 'both' });
    hook.respondWith((d) => (d.attempt === 1 ? 500 : 200));
    await kit.client.projects.create({ name: 'Apollo' });
    const first = await hook.waitFor('project.created');
    await kit.clock.advance('1m');
    const retry = await hook.waitFor((d) => d.attempt === 2);

    // The package reads the system clock: it is set to the tracker's for each check.
    vi.useFakeTimers({ toFake: ['Date'] });
    const verifier = new Webhook(hook.secret);
    for (const delivery of [first, retry]) {
      vi.setSystemTime(delivery.receivedAt);
      expect(verifier.verify(delivery.body, delivery.headers)).toMatchObject({ type: 'project.created' });
      expect(await verifyWebhook(delivery.body, delivery.headers, hook.secret)).toMatchObject({
        id: first.id,
      });
    }
    expect(retry.headers['webhook-timestamp']).toBe(String(Math.floor(retry.receivedAt / 1000)));
    expect(retry.id).toBe(first.id);
    vi.setSystemTime(retry.receivedAt);
    expect(() => verifier.verify(retry.body.replace('Apollo', 'Zeus'), retry.headers)).toThrow();
    // Ten minutes later the first attempt's signature is stale for both verifiers.
    vi.setSystemTime(first.receivedAt + 10 * 60_000);
    expect(() => verifier.verify(first.body, first.headers)).toThrow(/too old/);
    await expect(verifyWebhook(first.body, first.headers, hook.secret)).rejects.toMatchObject({
      reason: 'timestamp_outside_tolerance',
    });
  });

  it('waits for a delivery by type or predicate, including one asked for before the write', async () => {
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture();
    const pending = hook.waitFor((d) => d.type === 'issue.created' && d.event.data.object.title === 'Second');
    const project = await kit.client.projects.create({ name: 'Apollo' });
    await kit.client.issues.create({ projectId: project.id, title: 'First' });
    await kit.client.issues.create({ projectId: project.id, title: 'Second' });
    const second = await pending;
    expect(second.event.type).toBe('issue.created');
    expect((await hook.waitFor('issue.created')).event).toMatchObject({
      data: { object: { title: 'First' } },
    });
    expect(hook.received.map((d) => d.type)).toEqual([
      'webhook.created',
      'project.created',
      'issue.created',
      'issue.created',
    ]);
  });

  it('rejects a waitFor that nothing answers in time, saying what was received and that retries need the clock', async () => {
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture({ eventTypes: ['project.created'] });
    hook.respondWith(500);
    await kit.client.projects.create({ name: 'Apollo' });
    await expect(hook.waitFor((d) => d.attempt === 2, { timeoutMs: 20 })).rejects.toThrow(
      /No delivery matching the predicate arrived within 20 ms; received: project\.created \(attempt 1, answered 500\)\. A retry arrives only when the clock is advanced/,
    );
  });

  it('rejects the waits still pending when the tracker closes', async () => {
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture({ eventTypes: ['issue.created'] });
    const pending = hook.waitFor('issue.created', { timeoutMs: 60_000 });
    await kit.close();
    kit = undefined;
    await expect(pending).rejects.toThrow(/closed/);
  });

  it('lets the app’s own handler answer, calling the tracker back while it does', async () => {
    kit = await createTestTracker();
    const t = kit;
    const hook = await t.webhooks.capture({ eventTypes: ['issue.created', 'issue.updated'] });
    hook.respondWith(async (delivery) => {
      if (delivery.type !== 'issue.created') return 204;
      const issue = delivery.event.data.object;
      await t.client.issues.update({ id: issue.id, etag: `"${issue.version}"` }, { labels: ['triaged'] });
      return 202;
    });
    const project = await t.client.projects.create({ name: 'Apollo' });
    const created = await t.client.issues.create({ projectId: project.id, title: 'Triage me' });
    expect(await hook.waitFor('issue.created')).toMatchObject({ status: 202 });
    const updated = await hook.waitFor('issue.updated');
    expect(updated.event.data.object.labels).toEqual(['triaged']);
    expect((await t.client.issues.get(created.id)).labels).toEqual(['triaged']);
    const log = (await t.client.webhooks.deliveries(hook.id).page()).data;
    expect(log.map((d) => [d.eventType, d.status, d.lastResponseStatus]).sort()).toEqual([
      ['issue.created', 'delivered', 202],
      ['issue.updated', 'delivered', 204],
    ]);
  });

  it('answers with the receiver’s headers and body as the delivery log shows them', async () => {
    kit = await createTestTracker();
    const hook = await kit.webhooks.capture({ eventTypes: ['project.created'] });
    hook.respondWith({ status: 429, headers: { 'Retry-After': '120' }, body: 'slow down' });
    await kit.client.projects.create({ name: 'Apollo' });
    await hook.waitFor('project.created');
    const [delivery] = (await kit.client.webhooks.deliveries(hook.id).page()).data;
    expect(delivery).toMatchObject({ status: 'pending', lastResponseStatus: 429 });
    expect(Date.parse(delivery?.nextAttemptAt as string) - kit.clock.now()).toBe(120_000);
  });
});
