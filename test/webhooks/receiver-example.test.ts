import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReceiver, verifySignature } from '../../examples/webhook-receiver.mjs';
import { signatureHeaderValue } from '../../src/core/index.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

const examplePath = fileURLToPath(new URL('../../examples/webhook-receiver.mjs', import.meta.url));

let fixture: WebhookFixture;
let server: Server;
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
let url = '';

beforeEach(async () => {
  fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true } });
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await fixture.close();
});

/** Subscribes the example receiver with `secret` as its configuration and the tracker's clock shifted by `skewMs`. */
async function subscribeExample(options: { secret?: (issued: string) => string; skewMs?: number } = {}) {
  const handled: { id: string; type: string }[] = [];
  const subscription = await fixture.subscribe(url, ['issue.created']);
  let secret = options.secret ? options.secret(subscription.secret) : subscription.secret;
  let skewMs = options.skewMs ?? 0;
  const install = () => {
    handler = createReceiver({
      secret,
      onEvent: (event) => {
        handled.push({ id: event.id, type: event.type });
      },
      now: () => fixture.clock.now() + skewMs,
    });
  };
  install();
  return {
    ...subscription,
    handled,
    reconfigure(next: { secret?: string; skewMs?: number }) {
      secret = next.secret ?? secret;
      skewMs = next.skewMs ?? skewMs;
      install();
    },
  };
}

const deliveryStates = async (id: string) =>
  (await fixture.deliveries(id)).map((d) => ({ status: d.status, lastResponseStatus: d.lastResponseStatus }));

describe('the example receiver (examples/webhook-receiver.mjs)', () => {
  it("accepts the dispatcher's signed deliveries and handles each event once, however often it comes", async () => {
    const receiver = await subscribeExample();
    await fixture.createIssue('First');
    await fixture.tracker.webhooks.dispatchDue();
    expect(await deliveryStates(receiver.id)).toEqual([{ status: 'delivered', lastResponseStatus: 200 }]);
    expect(receiver.handled.map((e) => e.type)).toEqual(['issue.created']);

    // A resend of the same event (as after a lost answer) is acknowledged and not handled again.
    const [delivery] = await fixture.deliveries(receiver.id);
    fixture.clock.advance(60_000);
    const retried = await fixture.api('POST', `/webhooks/${receiver.id}/deliveries/${delivery?.id}/retry`);
    expect(retried.status).toBe(200);
    await fixture.tracker.webhooks.dispatchDue();
    expect(await deliveryStates(receiver.id)).toEqual([{ status: 'delivered', lastResponseStatus: 200 }]);
    expect((await fixture.deliveries(receiver.id))[0]?.attempts).toBe(2);
    expect(receiver.handled).toHaveLength(1);

    // The test endpoint's delivery is a new event: handled.
    const tested = await fixture.api('POST', `/webhooks/${receiver.id}/test`);
    expect(tested.json).toMatchObject({ delivered: true, responseStatus: 200 });
    expect(receiver.handled.map((e) => e.type)).toEqual(['issue.created', 'webhook.test']);
  });

  it('refuses a delivery signed with another secret, and the tracker keeps retrying it', async () => {
    const receiver = await subscribeExample({ secret: (issued) => `${issued}-not-quite` });
    await fixture.createIssue('Forged?');
    await fixture.tracker.webhooks.dispatchDue();
    expect(await deliveryStates(receiver.id)).toEqual([{ status: 'pending', lastResponseStatus: 400 }]);
    expect(receiver.handled).toHaveLength(0);
  });

  it('refuses timestamps more than five minutes old or ahead, and accepts them within', async () => {
    const receiver = await subscribeExample({ skewMs: 301_000 });
    const tested = async () => (await fixture.api('POST', `/webhooks/${receiver.id}/test`)).json;
    expect(await tested()).toMatchObject({ delivered: false, responseStatus: 400 });
    receiver.reconfigure({ skewMs: -301_000 });
    expect(await tested()).toMatchObject({ delivered: false, responseStatus: 400 });
    receiver.reconfigure({ skewMs: 299_000 });
    expect(await tested()).toMatchObject({ delivered: true, responseStatus: 200 });
    receiver.reconfigure({ skewMs: -299_000 });
    expect(await tested()).toMatchObject({ delivered: true, responseStatus: 200 });
    expect(receiver.handled).toHaveLength(2);
  });

  it('keeps accepting through a secret rotation, configured with the old secret or the new one', async () => {
    const receiver = await subscribeExample();
    const rotated = await fixture.api('POST', `/webhooks/${receiver.id}/rotate-secret`);
    await fixture.createIssue('Signed twice, old receiver');
    await fixture.tracker.webhooks.dispatchDue();
    receiver.reconfigure({ secret: rotated.json.secret });
    await fixture.createIssue('Signed twice, new receiver');
    await fixture.tracker.webhooks.dispatchDue();
    expect(receiver.handled).toHaveLength(2);

    // Once the overlap is over, only the new secret verifies.
    fixture.clock.advance(24 * 3_600_000);
    receiver.reconfigure({ secret: receiver.secret });
    await fixture.createIssue('Signed once');
    await fixture.tracker.webhooks.dispatchDue();
    expect(receiver.handled).toHaveLength(2);
    receiver.reconfigure({ secret: rotated.json.secret });
    expect((await fixture.api('POST', `/webhooks/${receiver.id}/test`)).json.delivered).toBe(true);
  });

  it('exports a verify function that agrees with an independent HMAC and refuses malformed headers', async () => {
    const body = '{"id":"e1","type":"issue.created"}';
    const t = 1_800_000_000;
    const v1 = createHmac('sha256', 'whsec_k').update(`${t}.${body}`).digest('hex');
    const check = (header: string | undefined, secret = 'whsec_k') =>
      verifySignature({ rawBody: body, header, secret, nowSeconds: t });
    expect(check(`t=${t},v1=${v1}`)).toEqual({ ok: true });
    expect(check(`t=${t},v1=${'0'.repeat(64)},v1=${v1}`)).toEqual({ ok: true });
    expect(check(`t=${t},v1=${v1}`, 'whsec_x')).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(check(`t=${t + 1},v1=${v1}`).ok).toBe(false);
    for (const header of [
      undefined,
      '',
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},v1=${v1.slice(2)}`,
      `t=abc,v1=${v1}`,
    ]) {
      expect(check(header).ok, String(header)).toBe(false);
    }
    expect(await signatureHeaderValue(['whsec_k'], t, body)).toBe(`t=${t},v1=${v1}`);
  });

  it("de-duplicates on the signed body's id, not on the header, and handles an event once even when it comes twice at once", async () => {
    const secret = 'whsec_example';
    let calls = 0;
    let finish = () => {};
    const slow = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let entered = () => {};
    const handling = new Promise<void>((resolve) => {
      entered = resolve;
    });
    handler = createReceiver({
      secret,
      onEvent: async () => {
        calls++;
        entered();
        await slow;
      },
      now: () => 1_800_000_000_000,
    });
    const deliver = async (body: string, eventIdHeader: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-event-id': eventIdHeader,
          'x-service-signature': await signatureHeaderValue([secret], 1_800_000_000, body),
        },
        body,
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const event = JSON.stringify({ id: 'evt-1', type: 'issue.created', occurredAt: 'now', data: {} });
    // Both are sent at once; either may reach the receiver first, so exactly one of them is
    // handled and the other is a duplicate, whichever order they arrive in.
    const both = Promise.all([deliver(event, 'evt-1'), deliver(event, 'evt-1')]);
    await handling;
    finish();
    const answers = (await both).map((answer) => JSON.stringify(answer)).sort();
    expect(answers).toEqual([
      JSON.stringify({ status: 200, body: { duplicate: true } }),
      JSON.stringify({ status: 200, body: { received: true } }),
    ]);
    // A captured delivery replayed under another event-id header is still the same event.
    expect(await deliver(event, 'evt-forged')).toEqual({ status: 200, body: { duplicate: true } });
    expect(calls).toBe(1);
    // A signed body without an id cannot be de-duplicated: refused, not handled.
    const anonymous = JSON.stringify({ type: 'issue.created', data: {} });
    expect(await deliver(anonymous, 'evt-2')).toEqual({
      status: 400,
      body: { error: 'event without an id' },
    });
    expect(calls).toBe(1);
  });

  it('runs as a program with the secret from WEBHOOK_SECRET', async () => {
    const child = spawn(process.execPath, [examplePath], {
      env: { ...process.env, WEBHOOK_SECRET: 'whsec_program', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const listening = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const body = JSON.stringify({
        id: 'evt-1',
        type: 'webhook.test',
        occurredAt: new Date().toISOString(),
        data: {},
      });
      const send = async (secret: string) =>
        fetch(listening, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-service-event-id': 'evt-1',
            'x-service-signature': await signatureHeaderValue([secret], Math.floor(Date.now() / 1000), body),
          },
          body,
        });
      expect((await send('whsec_wrong')).status).toBe(400);
      expect(await (await send('whsec_program')).json()).toEqual({ received: true });
      expect(await (await send('whsec_program')).json()).toEqual({ duplicate: true });
      await new Promise<void>((resolve) => {
        const check = () => (output.includes('"id":"evt-1"') ? resolve() : setTimeout(check, 5));
        check();
      });
      expect(output.match(/"id":"evt-1"/g)).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
