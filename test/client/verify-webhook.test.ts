import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  createClient,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/client/index.js';
import { nodeWebhookSender } from '../../src/http/node.js';
import {
  type Received,
  type Receiver,
  startReceiver,
  type WebhookFixture,
  webhookFixture,
} from '../webhooks/fixture.js';

/** What a receiver got, as verifyWebhook takes it. */
interface Delivery {
  body: Uint8Array;
  headers: Record<string, string>;
}

const deliveryOf = (received: Received): Delivery => ({
  body: new Uint8Array(received.body),
  headers: Object.fromEntries(
    Object.entries(received.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  ),
});

/** Resolves with the verification error's reason, or 'accepted'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

/** `text` with the character at `at` swapped for another of the same kind (digit, hex, base64). */
function swapCharacter(text: string, at: number, pick: number): string {
  const c = text[at] ?? '';
  const alphabet = /[0-9]/.test(c)
    ? '0123456789'
    : /[a-f]/.test(c)
      ? '0123456789abcdef'
      : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const others = alphabet.replace(c, '');
  return `${text.slice(0, at)}${others[pick % others.length]}${text.slice(at + 1)}`;
}

describe('verifyWebhook with real deliveries (X-Service-Signature)', () => {
  let fixture: WebhookFixture;
  let receiver: Receiver;
  let client: Client;
  let hook: { id: string; secret: string };
  const now = () => fixture.clock.now();
  const deliveries: Delivery[] = [];

  beforeAll(async () => {
    fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true } });
    receiver = await startReceiver(() => fixture.clock.now());
    receiver.answer(() => ({ status: 204 }));
    client = createClient({ tracker: fixture.tracker, token: fixture.main.token });
    const created = await client.webhooks.create({ url: receiver.url, eventTypes: ['issue.created'] });
    if (created.secret === null) throw new Error('a first create answers the secret');
    hook = { id: created.id, secret: created.secret };

    const tested = await client.webhooks.test(hook.id);
    expect(tested).toMatchObject({ delivered: true, responseStatus: 204 });
    await client.issues.create({ projectId: fixture.main.projectId, title: 'Signed and sealed' });
    await fixture.tracker.webhooks.dispatchDue();
    deliveries.push(...receiver.received.map(deliveryOf));
  });
  afterAll(async () => {
    await receiver.close();
    await fixture.tracker.close();
  });

  it('accepts the test delivery and a dispatched event, and returns them typed', async () => {
    expect(deliveries).toHaveLength(2);
    const [test, created] = await Promise.all(
      deliveries.map((d) => verifyWebhook(d.body, d.headers, hook.secret, { now })),
    );
    expect(test?.type).toBe('webhook.test');
    expect(created?.type).toBe('issue.created');
    if (created?.type === 'issue.created') expect(created.data.object.title).toBe('Signed and sealed');
    expect(created?.id).toBe(deliveries[1]?.headers['x-service-event-id']);
  });

  it('accepts a Headers object and a string body as well', async () => {
    const [d] = deliveries;
    const event = await verifyWebhook(
      new TextDecoder().decode(d?.body),
      new Headers(d?.headers),
      hook.secret,
      { now },
    );
    expect(event.type).toBe('webhook.test');
  });

  it('rejects the delivery when any byte of the body is changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: deliveries.length - 1 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (which, position, mask) => {
          const d = deliveries[which] as Delivery;
          const body = Uint8Array.from(d.body);
          const at = position % body.length;
          body[at] = (body[at] as number) ^ mask;
          expect(await outcome(verifyWebhook(body, d.headers, hook.secret, { now }))).toBe(
            'no_matching_signature',
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects the delivery when any character of its signature header is changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: deliveries.length - 1 }),
        fc.nat(),
        fc.nat(),
        async (which, position, pick) => {
          const d = deliveries[which] as Delivery;
          const header = d.headers['x-service-signature'] ?? '';
          const at = position % header.length;
          fc.pre(/[0-9a-f]/.test(header[at] ?? ''));
          const headers = { ...d.headers, 'x-service-signature': swapCharacter(header, at, pick) };
          expect(await outcome(verifyWebhook(d.body, headers, hook.secret, { now }))).not.toBe('accepted');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects another secret, a missing header, and a timestamp outside the tolerance', async () => {
    const d = deliveries[0] as Delivery;
    const other = `whsec_${randomBytes(32).toString('base64url')}`;
    expect(await outcome(verifyWebhook(d.body, d.headers, other, { now }))).toBe('no_matching_signature');
    expect(await outcome(verifyWebhook(d.body, {}, hook.secret, { now }))).toBe('missing_header');
    const later = () => now() + 301_000;
    expect(await outcome(verifyWebhook(d.body, d.headers, hook.secret, { now: later }))).toBe(
      'timestamp_outside_tolerance',
    );
    expect(
      await outcome(verifyWebhook(d.body, d.headers, hook.secret, { now: later, toleranceSeconds: 400 })),
    ).toBe('accepted');
    // A list of secrets (the receiver rotating its own copy) passes when any one matches.
    expect(await outcome(verifyWebhook(d.body, d.headers, [other, hook.secret], { now }))).toBe('accepted');
  });

  it('accepts a delivery signed during a secret rotation with the old secret and with the new one', async () => {
    const rotated = await client.webhooks.rotateSecret(hook.id);
    const before = receiver.received.length;
    await client.issues.create({ projectId: fixture.main.projectId, title: 'Rotating' });
    await fixture.tracker.webhooks.dispatchDue();
    const d = deliveryOf(receiver.received[before] as Received);
    expect(d.headers['x-service-signature']?.match(/v1=/g)).toHaveLength(2);
    // Both shown: a first answer (only a replay of the request's key answers null).
    if (rotated.secret === null || hook.secret === null) throw new Error('a first answer shows the secret');
    for (const secret of [rotated.secret, hook.secret]) {
      expect(await outcome(verifyWebhook(d.body, d.headers, secret, { now }))).toBe('accepted');
    }
  });
});

describe('verifyWebhook with Standard Webhooks signatures (checked against the standardwebhooks package)', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const signer = new Webhook(secret);
  // Now, to the second: the package's own verify checks timestamps against the wall clock.
  const at = new Date(Math.floor(Date.now() / 1000) * 1000);
  const now = () => at.getTime();

  const signed = (id: string, payload: string) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, payload),
  });
  const payloadOf = (id: string) =>
    JSON.stringify({
      id,
      type: 'webhook.test',
      occurredAt: at.toISOString(),
      data: { object: { webhookId: 'wh_1', message: 'hi ☃' } },
    });

  it('accepts what the package signs, and agrees with its verify on any payload', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uuid(), fc.string(), async (id, message) => {
        const payload = JSON.stringify({ id, type: 'webhook.test', data: { object: { message } } });
        const headers = signed(id, payload);
        const event = await verifyWebhook(payload, headers, secret, { now });
        expect(event).toEqual(JSON.parse(payload));
        expect(
          new Webhook(secret).verify(payload, {
            ...headers,
            'webhook-timestamp': headers['webhook-timestamp'],
          }),
        ).toBeDefined();
      }),
      { numRuns: 50 },
    );
  });

  it('rejects any changed byte of the body, and a changed id or timestamp', async () => {
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const payload = payloadOf(id);
    const headers = signed(id, payload);
    const bytes = new TextEncoder().encode(payload);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: bytes.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        async (position, mask) => {
          const body = Uint8Array.from(bytes);
          body[position] = (body[position] as number) ^ mask;
          expect(await outcome(verifyWebhook(body, headers, secret, { now }))).toBe('no_matching_signature');
        },
      ),
      { numRuns: 300 },
    );
    expect(
      await outcome(verifyWebhook(payload, { ...headers, 'webhook-id': 'msg_other' }, secret, { now })),
    ).toBe('no_matching_signature');
    const stamp = String(Number(headers['webhook-timestamp']) + 1);
    expect(
      await outcome(verifyWebhook(payload, { ...headers, 'webhook-timestamp': stamp }, secret, { now })),
    ).toBe('no_matching_signature');
  });

  it('accepts any one matching signature of several (rotation), and refuses stale timestamps', async () => {
    const id = 'msg_rotation';
    const payload = payloadOf(id);
    const headers = signed(id, payload);
    const old = new Webhook(`whsec_${randomBytes(24).toString('base64')}`).sign(id, at, payload);
    const rotating = { ...headers, 'webhook-signature': `${old} ${headers['webhook-signature']}` };
    expect(await outcome(verifyWebhook(payload, rotating, secret, { now }))).toBe('accepted');
    const onlyOld = { ...headers, 'webhook-signature': old };
    expect(await outcome(verifyWebhook(payload, onlyOld, secret, { now }))).toBe('no_matching_signature');
    expect(
      await outcome(verifyWebhook(payload, headers, secret, { now: () => at.getTime() - 301_000 })),
    ).toBe('timestamp_outside_tolerance');
    expect(
      await outcome(verifyWebhook(payload, { ...headers, 'webhook-id': undefined }, secret, { now })),
    ).toBe('missing_header');
  });
});
