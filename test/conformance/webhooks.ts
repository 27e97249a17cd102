import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, macrotask, sampleDelivery, sampleWebhook } from './fixtures.js';

/** Webhook subscriptions and their deliveries (the outbox). */
export function webhookTests(adapter: AdapterUnderTest): void {
  describe('webhook subscriptions', () => {
    const { tx } = freshStore(adapter);

    it('finds a subscription in its own account only', async () => {
      const hook = sampleWebhook('acc_1');
      await tx((t) => t.webhooks.insert(hook));
      expect(await tx((t) => t.webhooks.get('acc_1', hook.id))).toEqual(hook);
      expect(await tx((t) => t.webhooks.get('acc_2', hook.id))).toBeNull();
    });

    it('lists an account’s subscriptions newest first, by status, keyset-paged with a total', async () => {
      const hooks = [
        sampleWebhook('acc_1', { createdAt: at(1) }),
        sampleWebhook('acc_1', { createdAt: at(2), status: 'disabled' }),
        sampleWebhook('acc_1', { createdAt: at(3) }),
        sampleWebhook('acc_1', { createdAt: at(3) }),
      ];
      await tx(async (t) => {
        for (const h of hooks) await t.webhooks.insert(h);
        await t.webhooks.insert(sampleWebhook('acc_2'));
      });
      const [h1, h2, h3, h4] = hooks as [
        (typeof hooks)[0],
        (typeof hooks)[0],
        (typeof hooks)[0],
        (typeof hooks)[0],
      ];
      const newest = h3.id > h4.id ? [h3, h4] : [h4, h3];
      const first = await tx((t) => t.webhooks.list({ accountId: 'acc_1', limit: 2 }));
      expect(first).toEqual({ rows: newest, total: 4 });
      const last = newest[1] as typeof h1;
      const second = await tx((t) =>
        t.webhooks.list({ accountId: 'acc_1', limit: 2, after: { createdAt: last.createdAt, id: last.id } }),
      );
      expect(second).toEqual({ rows: [h2, h1], total: 4 });
      const active = await tx((t) => t.webhooks.list({ accountId: 'acc_1', status: 'active', limit: 10 }));
      expect(active).toEqual({ rows: [...newest, h1], total: 3 });
    });

    it('updates by compare-and-set on version', async () => {
      const hook = sampleWebhook('acc_1');
      await tx((t) => t.webhooks.insert(hook));
      const changed = { ...hook, url: 'https://hooks.example.com/v2', version: 2 };
      await tx((t) => t.webhooks.update(changed, 1));
      expect(await tx((t) => t.webhooks.get('acc_1', hook.id))).toEqual(changed);
      await expect(tx((t) => t.webhooks.update({ ...hook, version: 2 }, 1))).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: 2,
      });
      await expect(tx((t) => t.webhooks.update({ ...hook, accountId: 'acc_2' }, 2))).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: null,
      });
    });

    it('deletes a subscription with its deliveries, leaving other subscriptions’ deliveries', async () => {
      const doomed = sampleWebhook('acc_1');
      const kept = sampleWebhook('acc_1');
      const doomedDelivery = sampleDelivery('acc_1', doomed.id);
      const keptDelivery = sampleDelivery('acc_1', kept.id);
      await tx(async (t) => {
        await t.webhooks.insert(doomed);
        await t.webhooks.insert(kept);
        await t.deliveries.insert(doomedDelivery);
        await t.deliveries.insert(keptDelivery);
      });
      expect(await tx((t) => t.webhooks.delete('acc_2', doomed.id))).toBe(false);
      expect(await tx((t) => t.webhooks.delete('acc_1', doomed.id))).toBe(true);
      expect(await tx((t) => t.webhooks.delete('acc_1', doomed.id))).toBe(false);
      await tx(async (t) => {
        expect(await t.webhooks.get('acc_1', doomed.id)).toBeNull();
        expect(await t.deliveries.get('acc_1', doomedDelivery.id)).toBeNull();
        expect(await t.deliveries.get('acc_1', keptDelivery.id)).toEqual(keptDelivery);
      });
    });

    it('finds the active subscriptions wanting an event type, listed exactly or through "*"', async () => {
      const exact = sampleWebhook('acc_1', { eventTypes: ['issue.created', 'issue.updated'] });
      const star = sampleWebhook('acc_1', { eventTypes: ['*'] });
      const otherType = sampleWebhook('acc_1', { eventTypes: ['project.created'] });
      const prefixOnly = sampleWebhook('acc_1', { eventTypes: ['issue'] });
      const disabled = sampleWebhook('acc_1', { eventTypes: ['*'], status: 'disabled' });
      const otherAccount = sampleWebhook('acc_2', { eventTypes: ['*'] });
      await tx(async (t) => {
        for (const h of [exact, star, otherType, prefixOnly, disabled, otherAccount])
          await t.webhooks.insert(h);
      });
      const found = await tx((t) => t.webhooks.activeFor('acc_1', 'issue.updated'));
      expect(found.map((h) => h.id).sort()).toEqual([exact.id, star.id].sort());
      expect(await tx((t) => t.webhooks.activeFor('acc_3', 'issue.updated'))).toEqual([]);
    });
  });

  describe('webhook deliveries', () => {
    const { tx } = freshStore(adapter);

    it('stores, updates and finds deliveries in their account only', async () => {
      const delivery = sampleDelivery('acc_1', 'whk_1');
      await tx((t) => t.deliveries.insert(delivery));
      expect(await tx((t) => t.deliveries.get('acc_2', delivery.id))).toBeNull();
      const delivered: WebhookDelivery = {
        ...delivery,
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        deliveredAt: at(5),
        lastResponseStatus: 204,
      };
      await tx((t) => t.deliveries.update(delivered));
      expect(await tx((t) => t.deliveries.get('acc_1', delivery.id))).toEqual(delivered);
    });

    it('lists one subscription’s deliveries newest first, keyset-paged with a total', async () => {
      const rows = [0, 1, 2, 3, 4].map((i) => sampleDelivery('acc_1', 'whk_1', { createdAt: at(i) }));
      await tx(async (t) => {
        for (const d of rows) await t.deliveries.insert(d);
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_2'));
      });
      const newestFirst = [...rows].reverse();
      const first = await tx((t) =>
        t.deliveries.list({ accountId: 'acc_1', subscriptionId: 'whk_1', limit: 3 }),
      );
      expect(first).toEqual({ rows: newestFirst.slice(0, 3), total: 5 });
      const last = newestFirst[2] as WebhookDelivery;
      const second = await tx((t) =>
        t.deliveries.list({
          accountId: 'acc_1',
          subscriptionId: 'whk_1',
          limit: 3,
          after: { createdAt: last.createdAt, id: last.id },
        }),
      );
      expect(second).toEqual({ rows: newestFirst.slice(3), total: 5 });
      expect(
        await tx((t) => t.deliveries.list({ accountId: 'acc_2', subscriptionId: 'whk_1', limit: 3 })),
      ).toEqual({ rows: [], total: 0 });
    });

    it('claims pending due deliveries oldest due first, moving nextAttemptAt to the lease end', async () => {
      const late = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(5) });
      const early = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(1) });
      const notDue = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(50) });
      const done = sampleDelivery('acc_1', 'whk_1', { status: 'delivered', nextAttemptAt: null });
      const failed = sampleDelivery('acc_1', 'whk_1', { status: 'failed', nextAttemptAt: at(0) });
      await tx(async (t) => {
        for (const d of [late, early, notDue, done, failed]) await t.deliveries.insert(d);
      });
      const claimed = await tx((t) => t.deliveries.claimDue(at(10), at(70), 10));
      expect(claimed).toEqual([
        { ...early, nextAttemptAt: at(70) },
        { ...late, nextAttemptAt: at(70) },
      ]);
      expect((await tx((t) => t.deliveries.get('acc_1', early.id)))?.nextAttemptAt).toBe(at(70));
      expect(await tx((t) => t.deliveries.claimDue(at(10), at(70), 10))).toEqual([]);
      const afterLease = await tx((t) => t.deliveries.claimDue(at(70), at(130), 10));
      // notDue (at 50) comes first; the two leased ones (at 70) follow, in either order.
      expect(afterLease[0]).toEqual({ ...notDue, nextAttemptAt: at(130) });
      expect(afterLease.map((d) => d.id).sort()).toEqual([early.id, late.id, notDue.id].sort());
      expect(afterLease.map((d) => d.nextAttemptAt)).toEqual([at(130), at(130), at(130)]);
    });

    it('never hands the same delivery to two concurrent claims', async () => {
      await tx(async (t) => {
        for (let i = 0; i < 20; i++) {
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(i % 5) }));
        }
      });
      const batches = await Promise.all(
        Array.from({ length: 10 }, () =>
          tx(async (t) => {
            await macrotask();
            return t.deliveries.claimDue(at(10), at(100), 3);
          }),
        ),
      );
      const ids = batches.flat().map((d) => d.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });
  });
}
