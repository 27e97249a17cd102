import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { retryDelaysMs } from '../../src/core/webhooks/schedule.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { startTime } from '../http/harness.js';
import { type Receiver, startReceiver, type WebhookFixture, webhookFixture } from './fixture.js';

const minute = 60_000;
const hour = 60 * minute;

let fixture: WebhookFixture;
const receivers: Receiver[] = [];

afterEach(async () => {
  await fixture?.close();
  for (const r of receivers.splice(0)) await r.close();
});

/** A tracker delivering with the real Node sender to loopback receivers, jitter from `random`. */
async function setup(random: () => number = () => 0.5, concurrency?: number) {
  fixture = await webhookFixture({
    webhooks: {
      sender: nodeWebhookSender(),
      allowPrivateTargets: true,
      random,
      ...(concurrency ? { concurrency } : {}),
    },
  });
  const receiver = await startReceiver(() => fixture.clock.now());
  receivers.push(receiver);
  return receiver;
}

/** The one delivery of the fixture, as stored. */
async function onlyDelivery() {
  const [delivery, ...rest] = await fixture.deliveries();
  expect(rest).toHaveLength(0);
  if (!delivery) throw new Error('no delivery');
  return delivery;
}

describe('the retry schedule against a failing receiver (fake clock)', () => {
  it('tries again at about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h within ±10 % jitter, then stops after the eighth attempt', async () => {
    const jitter = [0, 0.999, 0.25, 0.75, 0.1, 0.9, 0.5];
    let draw = 0;
    const receiver = await setup(() => jitter[draw++ % jitter.length] as number);
    receiver.answer(() => ({ status: 500 }));
    const { id, secret } = await fixture.subscribe(receiver.url);
    await fixture.createIssue('Flaky receiver');

    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(1);
    for (let attempt = 1; attempt < 8; attempt++) {
      const delivery = await onlyDelivery();
      expect(delivery).toMatchObject({ status: 'pending', attempts: attempt, lastResponseStatus: 500 });
      const due = Date.parse(delivery.nextAttemptAt as string);
      // A moment before it is due, nothing goes out.
      fixture.clock.set(due - 1);
      expect(await fixture.tracker.webhooks.dispatchDue()).toBe(0);
      fixture.clock.set(due);
      expect(await fixture.tracker.webhooks.dispatchDue()).toBe(1);
    }
    const last = await onlyDelivery();
    expect(last).toMatchObject({
      status: 'failed',
      attempts: 8,
      nextAttemptAt: null,
      lastResponseStatus: 500,
    });

    const times = receiver.received.map((r) => r.atMs);
    expect(times).toHaveLength(8);
    expect(times[0]).toBe(startTime);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    gaps.forEach((gap, i) => {
      const base = retryDelaysMs[i] as number;
      expect(gap).toBeGreaterThanOrEqual(base * 0.9);
      expect(gap).toBeLessThanOrEqual(base * 1.1);
    });
    expect(retryDelaysMs).toEqual([1, 5, 30, 120, 360, 720, 1440].map((m) => m * minute));
    // The jitter is real: the injected draws moved the attempts off the bare schedule.
    expect(gaps.filter((gap, i) => gap !== retryDelaysMs[i])).not.toHaveLength(0);

    // Every attempt: the same event id and bytes, signed anew with the time of the attempt.
    const eventIds = new Set(receiver.received.map((r) => r.headers['x-service-event-id']));
    expect(eventIds.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body.toString('utf8'))).size).toBe(1);
    for (const request of receiver.received) {
      const t = Math.floor(request.atMs / 1000);
      const v1 = createHmac('sha256', secret).update(`${t}.`).update(request.body).digest('hex');
      expect(request.headers['x-service-signature']).toBe(`t=${t},v1=${v1}`);
    }

    // Days later, still nothing more.
    fixture.clock.advance(10 * 24 * hour);
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(0);
    expect(receiver.received).toHaveLength(8);
    expect((await fixture.subscription(id))?.status).toBe('active');
  });

  it('disables the subscription at the first 410 and sends nothing more to it', async () => {
    const receiver = await setup(undefined, 1);
    receiver.answer(() => ({ status: 410 }));
    const { id } = await fixture.subscribe(receiver.url);
    await fixture.createIssue('First');
    await fixture.createIssue('Second');

    await fixture.tracker.webhooks.dispatchDue();
    expect(receiver.received).toHaveLength(1);
    expect(await fixture.subscription(id)).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    const deliveries = await fixture.deliveries(id);
    // The one attempted, and the other never sent because its subscription was gone by then.
    expect(deliveries.map((d) => [d.status, d.attempts]).sort()).toEqual([
      ['failed', 0],
      ['failed', 1],
    ]);

    await fixture.createIssue('Third, after the 410');
    fixture.clock.advance(24 * hour);
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(await fixture.deliveries(id)).toHaveLength(2);
  });

  it('counts a 3xx as a failure and never requests its Location', async () => {
    const receiver = await setup();
    const elsewhere = await startReceiver();
    receivers.push(elsewhere);
    receiver.answer(() => ({ status: 302, headers: { Location: elsewhere.url } }));
    await fixture.subscribe(receiver.url);
    await fixture.createIssue('Redirected');

    await fixture.tracker.webhooks.dispatchDue();
    expect(receiver.received).toHaveLength(1);
    expect(elsewhere.connections()).toBe(0);
    expect(await onlyDelivery()).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastResponseStatus: 302,
      nextAttemptAt: new Date(startTime + minute).toISOString(),
    });
  });

  it('waits as long as Retry-After asks on 429 and 503, in seconds or as an HTTP date', async () => {
    const receiver = await setup();
    await fixture.subscribe(receiver.url);

    receiver.answer(() => ({ status: 429, headers: { 'Retry-After': '7200' } }));
    await fixture.createIssue('Rate limited');
    await fixture.tracker.webhooks.dispatchDue();
    expect((await onlyDelivery()).nextAttemptAt).toBe(new Date(startTime + 2 * hour).toISOString());

    const retryAt = startTime + 2 * hour + 45 * minute;
    receiver.answer(() => ({ status: 503, headers: { 'Retry-After': new Date(retryAt).toUTCString() } }));
    fixture.clock.set(startTime + 2 * hour);
    await fixture.tracker.webhooks.dispatchDue();
    expect(await onlyDelivery()).toMatchObject({
      attempts: 2,
      nextAttemptAt: new Date(retryAt).toISOString(),
    });

    // A Retry-After on a plain 500 is not a promise the receiver made: the schedule rules.
    receiver.answer(() => ({ status: 500, headers: { 'Retry-After': '86400' } }));
    fixture.clock.set(retryAt);
    await fixture.tracker.webhooks.dispatchDue();
    expect(await onlyDelivery()).toMatchObject({
      attempts: 3,
      nextAttemptAt: new Date(retryAt + 30 * minute).toISOString(),
    });
  });

  it('disables a subscription whose deliveries have failed for three days straight, and not before', async () => {
    const receiver = await setup();
    receiver.answer(() => ({ status: 500 }));
    const { id } = await fixture.subscribe(receiver.url);
    let disabledAt: number | null = null;
    for (let h = 0; h <= 96 && disabledAt === null; h++) {
      fixture.clock.set(startTime + h * hour);
      if (h % 12 === 0) await fixture.createIssue(`Event at hour ${h}`);
      await fixture.tracker.webhooks.dispatchDue();
      const subscription = await fixture.subscription(id);
      if (subscription?.status === 'disabled') {
        expect(subscription.disabledReason).toBe('failing');
        disabledAt = h;
      }
    }
    expect(disabledAt).toBe(72);
  });

  it('keeps a subscription active when a success interrupts the failures', async () => {
    const receiver = await setup();
    let healthy = false;
    receiver.answer(() => ({ status: healthy ? 204 : 500 }));
    const { id } = await fixture.subscribe(receiver.url);
    for (let h = 0; h <= 120; h++) {
      fixture.clock.set(startTime + h * hour);
      healthy = h === 48;
      if (h % 12 === 0) await fixture.createIssue(`Event at hour ${h}`);
      await fixture.tracker.webhooks.dispatchDue();
    }
    // Failing since hour 49 at the latest: three days have not passed by hour 120.
    expect((await fixture.subscription(id))?.status).toBe('active');
    expect(receiver.received.some((r) => r.atMs === startTime + 48 * hour)).toBe(true);
  });
});
