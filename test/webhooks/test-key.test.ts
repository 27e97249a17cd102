import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookResult, WebhookSender } from '../../src/core/index.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

const url = 'https://hooks.example.com/outcome-tracker';

/** A sender whose sends wait until the test lets them go, so requests can overlap one. */
function gatedSender() {
  let sends = 0;
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const sender: WebhookSender = {
    resolve: async () => ['93.184.215.14'],
    send: async (): Promise<WebhookResult> => {
      sends++;
      await gate;
      return { status: 204, retryAfter: null, error: null, durationMs: 5 };
    },
  };
  return { sender, sends: () => sends, open: () => open() };
}

let fixture: WebhookFixture;
afterEach(() => fixture.close());

describe('POST /webhooks/{id}/test with an Idempotency-Key', () => {
  it('holds the key while it sends: concurrent requests with it get 409, and one delivery goes out', async () => {
    const outbound = gatedSender();
    fixture = await webhookFixture({ webhooks: { sender: outbound.sender }, rateLimit: { limit: 1000 } });
    const { id } = await fixture.subscribe(url, ['issue.created']);
    const key = randomUUID();
    const send = () => fixture.api('POST', `/webhooks/${id}/test`, { headers: { 'idempotency-key': key } });

    const first = send();
    // Wait until the first request's send is under way, then send the same request nine times.
    while (outbound.sends() === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const others = await Promise.all(Array.from({ length: 9 }, send));
    expect(others.map((r) => r.status)).toEqual(Array(9).fill(409));
    for (const other of others) {
      expect(other.json.error).toBe('idempotency_key_in_use');
      expect(other.headers['Retry-After']).toBe('1');
      expect(other.headers['X-RateLimit-Remaining']).toMatch(/^\d+$/);
    }
    outbound.open();
    const sent = await first;
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ delivered: true, responseStatus: 204 });

    // Afterwards the key replays the stored answer, with the rate-limit headers of this request.
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    expect(replay.json).toEqual(sent.json);
    expect(Number(replay.headers['X-RateLimit-Remaining'])).toBe(1000 - 12);
    expect(replay.headers.RateLimit).toBe('"default";r=988;t=60');
    expect(outbound.sends()).toBe(1);
    expect((await fixture.deliveries(id)).filter((d) => d.eventType === 'webhook.test')).toHaveLength(1);
    // Another key is another test.
    const again = await fixture.api('POST', `/webhooks/${id}/test`, {
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(again.status).toBe(200);
    expect(outbound.sends()).toBe(2);
  });

  it('gives the key back when the send could not be recorded, so a retry with it sends', async () => {
    const outbound = gatedSender();
    outbound.open();
    fixture = await webhookFixture({ webhooks: { sender: outbound.sender } });
    const { id } = await fixture.subscribe(url, ['issue.created']);
    const key = randomUUID();
    // The delivery row is gone before the send is recorded: the after-commit work fails.
    const original = fixture.storage.transaction.bind(fixture.storage);
    let failNext = false;
    fixture.storage.transaction = ((fn, options) =>
      original(async (tx) => {
        if (failNext) {
          failNext = false;
          throw new Error('storage unavailable');
        }
        return fn(tx);
      }, options)) as typeof fixture.storage.transaction;
    const realSend = outbound.sender.send;
    outbound.sender.send = async (request) => {
      failNext = true;
      return realSend(request);
    };
    const failed = await fixture.api('POST', `/webhooks/${id}/test`, { headers: { 'idempotency-key': key } });
    expect(failed.status).toBe(500);
    outbound.sender.send = realSend;
    const retried = await fixture.api('POST', `/webhooks/${id}/test`, {
      headers: { 'idempotency-key': key },
    });
    expect(retried.status).toBe(200);
    expect(retried.headers['Idempotent-Replayed']).toBeUndefined();
    expect(outbound.sends()).toBe(2);
  });
});
