import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher, verifySignature, type WebhookSender } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const minute = 60_000;
const eventCount = 500;

/**
 * A receiver reached in-process, that misbehaves at random: it refuses some deliveries, accepts
 * some but loses its answer, and sometimes the dispatcher "crashes" right after sending (the
 * sender throws, so the attempt is never recorded and the claim is abandoned until its lease
 * passes). Only failures are random; an event is never failed more than four times in a row, so
 * the schedule (eight attempts) always leaves room to succeed.
 */
function flakyReceiver(random: () => number, secret: () => string, nowSeconds: () => number) {
  const processed: string[] = [];
  const seen = new Set<string>();
  const failuresOf = new Map<string, number>();
  const stats = { sends: 0, crashes: 0, lostAnswers: 0, refusals: 0 };
  const receive = async (eventId: string, body: string, header: string) => {
    const verdict = await verifySignature({ body, header, secret: secret(), nowSeconds: nowSeconds() });
    if (!verdict.ok) throw new Error(`bad signature on ${eventId}: ${verdict.reason}`);
    if (JSON.parse(body).id !== eventId) throw new Error('event id header and body disagree');
    // The de-duplication every receiver must do: act on each event id once.
    if (!seen.has(eventId)) {
      seen.add(eventId);
      processed.push(eventId);
    }
  };
  const sender: WebhookSender = {
    resolve: async () => ['93.184.215.14'],
    async send(request) {
      stats.sends++;
      const eventId = request.headers['X-Service-Event-Id'] as string;
      const failures = failuresOf.get(eventId) ?? 0;
      const roll = failures >= 4 ? 0 : random();
      const answer = (status: number | null) => ({
        status,
        retryAfter: null,
        error: status === null ? 'timeout' : null,
        durationMs: 1,
      });
      if (roll < 0.55) {
        await receive(eventId, request.body, request.headers['X-Service-Signature'] as string);
        return answer(200);
      }
      failuresOf.set(eventId, failures + 1);
      if (roll < 0.7) {
        stats.refusals++;
        return answer(roll < 0.65 ? 500 : null);
      }
      await receive(eventId, request.body, request.headers['X-Service-Signature'] as string);
      if (roll < 0.85) {
        stats.lostAnswers++;
        return answer(502);
      }
      stats.crashes++;
      throw new Error('dispatcher process died after sending');
    },
  };
  return { sender, processed, stats };
}

/** Lets the event loop turn a few times, so a running dispatcher gets somewhere before it is stopped. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

for (const adapter of adaptersUnderTest) {
  describe(`at-least-once delivery (${adapter.name})`, () => {
    let fixture: WebhookFixture;
    afterEach(async () => {
      await fixture?.close();
    });

    it('ends, after de-duplication on the event id, with every one of 500 events exactly once, through stops, restarts and crashes', async () => {
      const random = seeded(20261122);
      let secret = '';
      let nowSeconds = () => 0;
      const receiver = flakyReceiver(
        random,
        () => secret,
        () => nowSeconds(),
      );
      fixture = await webhookFixture({
        storage: await adapter.create(),
        webhooks: { sender: receiver.sender, random, concurrency: 4 },
      });
      nowSeconds = () => Math.floor(fixture.clock.now() / 1000);
      const subscription = await fixture.subscribe('https://receiver.example.com/hook', ['issue.created']);
      secret = subscription.secret;
      // A second dispatcher over the same storage, as a second process would be.
      const second = createDispatcher({
        storage: fixture.storage,
        clock: fixture.clock,
        sender: receiver.sender,
        allowPrivateTargets: false,
        random,
        concurrency: 3,
        onError: (error) => fixture.errors.push(error),
      });

      let created = 0;
      let rounds = 0;
      while (created < eventCount) {
        rounds++;
        const batch = Math.min(eventCount - created, 1 + Math.floor(random() * 25));
        for (let i = 0; i < batch; i++) await fixture.createIssue(`Event ${created++}`);
        const action = random();
        if (action < 0.35) {
          await fixture.tracker.webhooks.dispatchDue();
        } else if (action < 0.7) {
          fixture.tracker.webhooks.start(1);
          await turns(1 + Math.floor(random() * 40));
          await fixture.tracker.webhooks.stop();
        } else {
          fixture.tracker.webhooks.start(1);
          second.start(1);
          await turns(1 + Math.floor(random() * 40));
          await Promise.all([fixture.tracker.webhooks.stop(), second.stop()]);
        }
        // Sometimes past the leases (30 s) and the first retries, sometimes not.
        fixture.clock.advance(Math.floor(random() * 3 * minute));
      }
      // The drain: an hour at a time, until nothing is pending or left leased by a crashed attempt.
      for (let hour = 0; hour < 48; hour++) {
        const pending = (await fixture.deliveries()).filter(
          (d) => d.status === 'pending' || d.status === 'sending',
        );
        if (pending.length === 0) break;
        fixture.clock.advance(60 * minute);
        await fixture.tracker.webhooks.dispatchDue();
      }

      const events = await fixture.storage.transaction((tx) =>
        tx.signals.list({ accountId: fixture.main.accountId, types: ['issue.created'], limit: 1000 }),
      );
      expect(events).toHaveLength(eventCount);
      expect([...receiver.processed].sort()).toEqual(events.map((e) => e.id).sort());
      expect(new Set(receiver.processed).size).toBe(eventCount);
      const deliveries = await fixture.deliveries(subscription.id);
      expect(deliveries.filter((d) => d.status !== 'delivered')).toEqual([]);
      // The run did exercise what it claims to: refusals, lost answers, crashes, and so duplicates.
      expect(receiver.stats.refusals).toBeGreaterThan(0);
      expect(receiver.stats.lostAnswers).toBeGreaterThan(0);
      expect(receiver.stats.crashes).toBeGreaterThan(0);
      expect(rounds).toBeGreaterThan(10);
      // Each crash surfaced to the dispatcher's error hook; nothing else went wrong.
      expect(fixture.errors).toHaveLength(receiver.stats.crashes);
      // 500 events through a few hundred transactions: on PostgreSQL with the machine busy that
      // took over the default minute. No wait in it is timed; this is only how long to let it run.
    }, 300_000);
  });
}
