import { afterEach, describe, expect, it } from 'vitest';
import {
  createDispatcher,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
} from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

/** A sender holding every request until released, whose resolver can be held too. */
function heldSender() {
  const held: ((result: WebhookResult) => void)[] = [];
  let resolveGate: Promise<void> = Promise.resolve();
  let openGate = () => {};
  const sender: WebhookSender = {
    resolve: async () => {
      await resolveGate;
      return ['93.184.215.14'];
    },
    send: (_request: WebhookRequest) => new Promise<WebhookResult>((resolve) => held.push(resolve)),
  };
  return {
    sender,
    held,
    answer: (status: number) => held.shift()?.({ status, retryAfter: null, error: null, durationMs: 3 }),
    holdResolver() {
      resolveGate = new Promise((resolve) => {
        openGate = resolve;
      });
    },
    releaseResolver: () => openGate(),
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

let fixture: WebhookFixture;
afterEach(async () => {
  await fixture?.close();
});

describe.each(adaptersUnderTest.map((a) => [a.name, a] as const))(
  'delivery leases (%s)',
  (_name, adapter) => {
    it('answers 409 delivery_in_flight to a retry of a delivery being sent, and sends it once', async () => {
      const held = heldSender();
      fixture = await webhookFixture({ storage: await adapter.create(), webhooks: { sender: held.sender } });
      const { id } = await fixture.subscribe('https://hooks.example.com/in');
      await fixture.createIssue('In flight');
      const dispatched = fixture.tracker.webhooks.dispatchDue();
      await until(() => held.held.length === 1);

      const [delivery] = await fixture.deliveries(id);
      expect(delivery).toMatchObject({ status: 'sending', attempts: 0 });
      const listed = await fixture.api('GET', `/webhooks/${id}/deliveries`);
      expect(listed.json.data[0]).toMatchObject({ status: 'sending' });
      expect(listed.json.data[0]).not.toHaveProperty('leaseId');
      const retried = await fixture.api('POST', `/webhooks/${id}/deliveries/${delivery?.id}/retry`);
      expect(retried.status).toBe(409);
      expect(retried.json).toMatchObject({ error: 'delivery_in_flight', status: 409 });

      held.answer(204);
      expect(await dispatched).toBe(1);
      expect(held.held).toHaveLength(0);
      const [done] = await fixture.deliveries(id);
      expect(done).toMatchObject({ status: 'delivered', attempts: 1, leaseId: null, leaseExpiresAt: null });
    });

    it('redelivers a delivered delivery as a new attempt with consistent fields', async () => {
      const held = heldSender();
      fixture = await webhookFixture({ storage: await adapter.create(), webhooks: { sender: held.sender } });
      const { id } = await fixture.subscribe('https://hooks.example.com/in');
      await fixture.createIssue('Twice');
      const first = fixture.tracker.webhooks.dispatchDue();
      await until(() => held.held.length === 1);
      held.answer(200);
      await first;
      const [delivered] = await fixture.deliveries(id);
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 1 });

      fixture.clock.advance(1000);
      const retried = await fixture.api('POST', `/webhooks/${id}/deliveries/${delivered?.id}/retry`);
      expect(retried.status).toBe(200);
      expect(retried.json).toMatchObject({
        status: 'pending',
        attempts: 1,
        deliveredAt: null,
        nextAttemptAt: new Date(fixture.clock.now()).toISOString(),
        lastResponseStatus: 200,
      });
      const second = fixture.tracker.webhooks.dispatchDue();
      await until(() => held.held.length === 1);
      held.answer(202);
      await second;
      const detail = await fixture.api('GET', `/webhooks/${id}/deliveries/${delivered?.id}`);
      expect(detail.json).toMatchObject({ status: 'delivered', attempts: 2, lastResponseStatus: 202 });
      expect(detail.json.attemptLog.map((a: { number: number }) => a.number)).toEqual([1, 2]);
    });

    it('sends a delivery again after its claimant’s lease ran out, and drops the stale claimant’s result', async () => {
      const storage = await adapter.create();
      const stale = heldSender();
      fixture = await webhookFixture({ storage, webhooks: { sender: stale.sender } });
      const { id } = await fixture.subscribe('https://hooks.example.com/in');
      await fixture.createIssue('Slow claimant');
      const staleRun = fixture.tracker.webhooks.dispatchDue();
      await until(() => stale.held.length === 1);

      // A second dispatcher on the same store, once the first one's lease (30 s) has run out.
      const fresh = heldSender();
      const second = createDispatcher({
        storage,
        clock: fixture.clock,
        sender: fresh.sender,
        allowPrivateTargets: false,
      });
      fixture.clock.advance(29_000);
      // Still leased: nothing for the second dispatcher yet.
      expect(await second.dispatchDue()).toBe(0);
      fixture.clock.advance(2_000);
      const freshRun = second.dispatchDue();
      await until(() => fresh.held.length === 1);
      fresh.answer(201);
      expect(await freshRun).toBe(1);

      // The first claimant answers late: its result is refused.
      stale.answer(500);
      await staleRun;
      const [delivery] = await fixture.deliveries(id);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, lastResponseStatus: 201 });
      const detail = await fixture.api('GET', `/webhooks/${id}/deliveries/${delivery?.id}`);
      expect(detail.json.attemptLog).toHaveLength(1);
    });

    it('resolves a webhook URL’s host outside the transaction: a slow DNS answer holds no other request', async () => {
      const held = heldSender();
      fixture = await webhookFixture({ storage: await adapter.create(), webhooks: { sender: held.sender } });
      held.holdResolver();
      const creating = fixture.api('POST', '/webhooks', {
        body: { url: 'https://slow-dns.example.com/in', eventTypes: ['*'] },
      });
      // While the lookup hangs, other writes go through.
      const issue = await fixture.api('POST', '/issues', {
        body: { projectId: fixture.main.projectId, title: 'Not stuck behind DNS' },
      });
      expect(issue.status).toBe(201);
      held.releaseResolver();
      expect((await creating).status).toBe(201);
    });
  },
);
