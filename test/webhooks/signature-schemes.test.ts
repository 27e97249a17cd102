import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { computeStandardSignature } from '../../src/core/webhooks/standard-signature.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { fakeClock } from '../http/harness.js';
import { type Receiver, startReceiver, type WebhookFixture, webhookFixture } from './fixture.js';

let fixture: WebhookFixture;
const receivers: Receiver[] = [];
afterEach(async () => {
  await fixture?.close();
  for (const r of receivers.splice(0)) await r.close();
});

/** A fixture whose clock is the real time: the receiver libraries check timestamps against it. */
async function realTimeFixture(): Promise<Receiver> {
  fixture = await webhookFixture({
    clock: fakeClock(Date.now()),
    webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
  });
  const receiver = await startReceiver();
  receivers.push(receiver);
  return receiver;
}

/** The headers of a received request as the libraries want them: name → single string. */
const flat = (headers: Receiver['received'][number]['headers']) =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
  );

describe('signature schemes', () => {
  it('matches the Standard Webhooks test vector', async () => {
    const signature = await computeStandardSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(`v1,${signature}`).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs stripe-style by default: the stripe package verifies a real delivery', async () => {
    const receiver = await realTimeFixture();
    const created = await fixture.api('POST', '/webhooks', {
      body: { url: receiver.url, eventTypes: ['*'] },
    });
    expect(created.json.signatureScheme).toBe('stripe');
    await fixture.createIssue('Stripe-checked');
    await fixture.tracker.webhooks.dispatchDue();
    const request = receiver.received.find((r) => JSON.parse(r.body.toString()).type === 'issue.created');
    if (!request) throw new Error('no delivery arrived');
    expect(request.headers['webhook-signature']).toBeUndefined();
    const event = Stripe.webhooks.constructEvent(
      request.body,
      String(request.headers['x-service-signature']),
      created.json.secret,
    );
    expect(event).toMatchObject({ type: 'issue.created' });
    expect(() =>
      Stripe.webhooks.constructEvent(
        request.body,
        String(request.headers['x-service-signature']),
        'whsec_other',
      ),
    ).toThrow();
  });

  it('signs with Standard Webhooks when asked: the standardwebhooks package verifies a real delivery', async () => {
    const receiver = await realTimeFixture();
    const created = await fixture.api('POST', '/webhooks', {
      body: { url: receiver.url, eventTypes: ['issue.created'], signatureScheme: 'standard' },
    });
    expect(created.status).toBe(201);
    expect(created.json.signatureScheme).toBe('standard');
    await fixture.createIssue('Standard-checked');
    await fixture.tracker.webhooks.dispatchDue();
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery arrived');
    expect(request.headers['x-service-signature']).toBeUndefined();
    const body = request.body.toString('utf8');
    const payload = new Webhook(created.json.secret).verify(body, flat(request.headers));
    expect(payload).toMatchObject({ type: 'issue.created', id: request.headers['webhook-id'] });
    expect(() => new Webhook(created.json.secret).verify(`${body} `, flat(request.headers))).toThrow(
      WebhookVerificationError,
    );
  });

  it('signs both ways with "both", and keeps both verifying through a rotation, in either scheme', async () => {
    const receiver = await realTimeFixture();
    const created = await fixture.api('POST', '/webhooks', {
      body: { url: receiver.url, eventTypes: ['issue.created'] },
    });
    const patched = await fixture.api('PATCH', `/webhooks/${created.json.id}`, {
      body: { signatureScheme: 'both' },
      headers: { 'if-match': created.headers.ETag ?? '' },
    });
    expect(patched.json).toMatchObject({ signatureScheme: 'both', version: 2 });
    const rotated = await fixture.api('POST', `/webhooks/${created.json.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    await fixture.createIssue('Signed twice, with two secrets');
    await fixture.tracker.webhooks.dispatchDue();
    const [request] = receiver.received;
    if (!request) throw new Error('no delivery arrived');
    const body = request.body.toString('utf8');
    for (const secret of [created.json.secret, rotated.json.secret]) {
      expect(new Webhook(secret).verify(body, flat(request.headers))).toMatchObject({
        type: 'issue.created',
      });
      expect(
        Stripe.webhooks.constructEvent(request.body, String(request.headers['x-service-signature']), secret),
      ).toMatchObject({ type: 'issue.created' });
    }
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
  });

  it('refuses an unknown scheme with 400', async () => {
    await realTimeFixture();
    const refused = await fixture.api('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:1/x', eventTypes: ['*'], signatureScheme: 'hmac' },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toBe('validation_failed');
  });
});
