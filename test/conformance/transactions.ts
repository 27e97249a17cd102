import { beforeEach, describe, expect } from 'vitest';
import type { StorageTx } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import {
  at,
  freshStore,
  macrotask,
  sampleDelivery,
  sampleIdempotency,
  sampleRow,
  sampleSignal,
  sampleToken,
  sampleWebhook,
  testFor,
} from './fixtures.js';

/** Transaction boundary: atomicity, isolation, serial execution, close. */
export function transactionTests(adapter: AdapterUnderTest): void {
  describe('transactions', () => {
    const { store, tx } = freshStore(adapter);
    const it = testFor(adapter);
    // Events are appended to an account that exists (PostgreSQL keeps its latest sequence in its row).
    beforeEach(() => tx((t) => t.tenancy.insertAccount({ id: 'acc_1', name: 'One', createdAt: at(0) })));

    /** Writes one of everything the request pipeline writes; returns what to look for afterwards. */
    const writeEverything = async (t: StorageTx, tokenId: string, webhookId: string) => {
      const issue = sampleRow('issues', 'wsp_1');
      await t.collections.issues.insert(issue);
      await t.signals.append(sampleSignal('acc_1', { resource: { type: 'issue', id: issue.id } }));
      await t.idempotency.put(sampleIdempotency('wsp_1', 'key-1', at(0)), at(-60));
      const delivery = sampleDelivery('acc_1', webhookId);
      await t.deliveries.insert(delivery);
      await t.counters.next('wsp_1', 'issues:prj_1');
      await t.tokens.touch('wsp_1', tokenId, at(5));
      return { issueId: issue.id, deliveryId: delivery.id };
    };

    const seedTokenAndWebhook = async () => {
      const token = sampleToken('wsp_1');
      const webhook = sampleWebhook('acc_1');
      await tx(async (t) => {
        await t.tokens.insert(token);
        await t.webhooks.insert(webhook);
      });
      return { tokenId: token.id, webhookId: webhook.id };
    };

    it('keeps every write of a transaction that resolves, and returns its value', async () => {
      const { tokenId, webhookId } = await seedTokenAndWebhook();
      const written = await tx((t) => writeEverything(t, tokenId, webhookId));
      await tx(async (t) => {
        expect(await t.collections.issues.get('wsp_1', written.issueId)).not.toBeNull();
        expect(await t.signals.count({ accountId: 'acc_1' })).toBe(1);
        expect(await t.idempotency.get('wsp_1', 'key-1')).not.toBeNull();
        expect(await t.deliveries.get('acc_1', written.deliveryId)).not.toBeNull();
        expect((await t.tokens.get(tokenId))?.lastUsedAt).toBe(at(5));
        expect(await t.counters.next('wsp_1', 'issues:prj_1')).toBe(2);
      });
    });

    it('leaves nothing behind when a transaction throws after writing, and rethrows the same error', async () => {
      const { tokenId, webhookId } = await seedTokenAndWebhook();
      const boom = new Error('boom');
      let written: { issueId: string; deliveryId: string } | undefined;
      await expect(
        tx(async (t) => {
          written = await writeEverything(t, tokenId, webhookId);
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(written).toBeDefined();
      await tx(async (t) => {
        expect(await t.collections.issues.get('wsp_1', written?.issueId ?? '')).toBeNull();
        expect(await t.collections.issues.count('wsp_1', {})).toBe(0);
        expect(await t.signals.list({ accountId: 'acc_1', limit: 10 })).toEqual([]);
        expect(await t.signals.latestSequence('acc_1')).toBe(0);
        expect(await t.idempotency.get('wsp_1', 'key-1')).toBeNull();
        expect(await t.deliveries.get('acc_1', written?.deliveryId ?? '')).toBeNull();
        expect((await t.tokens.get(tokenId))?.lastUsedAt).toBeNull();
        expect(await t.counters.next('wsp_1', 'issues:prj_1')).toBe(1);
      });
    });

    it('rolls back a transaction whose own write failed, and the next transaction runs normally', async () => {
      const project = sampleRow('projects', 'wsp_1', { key: 'APO' });
      await tx((t) => t.collections.projects.insert(project));
      await expect(
        tx(async (t) => {
          await t.counters.next('wsp_1', 'c');
          await t.collections.projects.insert(sampleRow('projects', 'wsp_1', { key: 'APO' }));
        }),
      ).rejects.toMatchObject({ name: 'UniqueViolation', what: 'project.key' });
      expect(await tx((t) => t.counters.next('wsp_1', 'c'))).toBe(1);
      expect(await tx((t) => t.collections.projects.count('wsp_1', {}))).toBe(1);
    });

    it('says how long its own statements took: from zero, never less, more after each statement', async () => {
      // A transaction that starts has taken next to nothing: less than `fresh` ms, a bound far
      // above any scheduling pause of a busy machine. The first one works until it has taken
      // more than that, so that a second one starting from it (not from nothing) would show.
      const fresh = 200;
      const seen: number[] = [];
      await tx(async (t) => {
        seen.push(t.busyMs());
        for (let i = 0; i < 20 || (t.busyMs() <= fresh && i < 100_000); i++) {
          await t.collections.issues.insert(sampleRow('issues', 'wsp_1'));
          seen.push(t.busyMs());
        }
        await t.collections.issues.list({ workspaceId: 'wsp_1', limit: 50 });
        seen.push(t.busyMs());
      });
      expect(seen[0]).toBeGreaterThanOrEqual(0);
      expect(seen[0]).toBeLessThan(fresh);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
      expect(seen.at(-1)).toBeGreaterThan(fresh);
      // A new transaction starts from nothing again.
      expect(await tx(async (t) => t.busyMs())).toBeLessThan(fresh);
    });

    it('charges a transaction its own statements only, not those of a costly one beside it', async () => {
      const seed = sampleRow('issues', 'wsp_1');
      await tx((t) => t.collections.issues.insert(seed));
      const costly = tx(async (t) => {
        for (let i = 0; i < 400; i++) await t.collections.issues.insert(sampleRow('issues', 'wsp_1'));
        return t.busyMs();
      });
      const cheap = Promise.all(
        Array.from({ length: 5 }, () =>
          tx(async (t) => {
            await t.collections.issues.get('wsp_1', seed.id);
            return t.busyMs();
          }),
        ),
      );
      const [costlyMs, cheapMs] = await Promise.all([costly, cheap]);
      // Run beside (or queued behind) 400 inserts, the cheap ones still took one read's time. The
      // median, not the slowest: one read that met a garbage collection on a loaded machine is
      // slow on its own account, while charging the costly transaction's statements to the cheap
      // ones would make every one queued behind it slow.
      const median = [...cheapMs].sort((a, b) => a - b)[2] as number;
      expect(median).toBeLessThan(costlyMs / 5);
    });

    it('loses no update when 50 concurrent transactions read a row, wait a macrotask, then write it', async () => {
      const entry = sampleRow('timeEntries', 'wsp_1', { minutes: 0 });
      await tx((t) => t.collections.timeEntries.insert(entry));
      await Promise.all(
        Array.from({ length: 50 }, () =>
          tx(async (t) => {
            const current = await t.collections.timeEntries.get('wsp_1', entry.id);
            if (!current) throw new Error('row vanished');
            await macrotask();
            await t.collections.timeEntries.update(
              { ...current, minutes: current.minutes + 1, version: current.version + 1 },
              current.version,
            );
          }),
        ),
      );
      const final = await tx((t) => t.collections.timeEntries.get('wsp_1', entry.id));
      expect(final).toMatchObject({ minutes: 50, version: 51 });
    });

    it('keeps the writes of every concurrent transaction that resolves and none of those that throw', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 30 }, (_, i) =>
          tx(async (t) => {
            const issue = sampleRow('issues', 'wsp_1');
            await t.collections.issues.insert(issue);
            await t.signals.append(sampleSignal('acc_1', { resource: { type: 'issue', id: issue.id } }));
            await t.counters.next('wsp_1', 'issues:prj_1');
            await macrotask();
            if (i % 3 === 1) throw new Error(`transaction ${i} fails`);
            return issue.id;
          }),
        ),
      );
      const kept = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
      expect(failed).toEqual(Array.from({ length: 10 }, (_, k) => 3 * k + 1));
      await tx(async (t) => {
        expect(await t.collections.issues.count('wsp_1', {})).toBe(20);
        for (const id of kept) expect(await t.collections.issues.get('wsp_1', id)).not.toBeNull();
        expect(await t.signals.count({ accountId: 'acc_1' })).toBe(20);
        // A rolled-back append may leave a gap in the numbers (PostgreSQL's), never an event.
        const listed = await t.signals.list({ accountId: 'acc_1', limit: 100 });
        expect(await t.signals.latestSequence('acc_1')).toBe(Math.max(...listed.map((e) => e.sequence)));
        // The counter moved once per kept transaction: the failed ones' increments are gone.
        expect(await t.counters.next('wsp_1', 'issues:prj_1')).toBe(21);
      });
    });

    it('undoes the deleteWhere of a concurrent transaction that throws after it, and keeps the others', async () => {
      const kept = Array.from({ length: 4 }, () => sampleRow('issues', 'wsp_del', { status: 'closed' }));
      await tx(async (t) => {
        for (const issue of kept) await t.collections.issues.insert(issue);
      });
      const outcomes = await Promise.allSettled([
        tx((t) => t.collections.issues.insert(sampleRow('issues', 'wsp_del', { status: 'open' }))),
        tx(async (t) => {
          // Deletes through RETURNING, which reports no changed rows of its own.
          expect(await t.collections.issues.deleteWhere('wsp_del', { status: 'closed' })).toHaveLength(4);
          await macrotask();
          throw new Error('fails after deleting');
        }),
        tx((t) => t.collections.issues.insert(sampleRow('issues', 'wsp_del', { status: 'open' }))),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      await tx(async (t) => {
        for (const issue of kept) expect(await t.collections.issues.get('wsp_del', issue.id)).not.toBeNull();
        expect(await t.collections.issues.count('wsp_del', {})).toBe(6);
        expect(await t.collections.issues.count('wsp_del', { status: 'closed' })).toBe(4);
      });
    });

    it('does not start a second transaction while the first awaits, nor show it uncommitted writes', async () => {
      const steps: string[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote: () => void = () => {};
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const project = sampleRow('projects', 'wsp_1');
      const first = tx(async (t) => {
        steps.push('first begins');
        await t.collections.projects.insert(project);
        wrote();
        await gate;
        steps.push('first throws');
        throw new Error('first fails');
      });
      await written;
      const second = tx(async (t) => {
        steps.push('second begins');
        return t.collections.projects.get('wsp_1', project.id);
      });
      for (let i = 0; i < 5; i++) await macrotask();
      expect(steps).toEqual(['first begins']);
      release();
      await expect(first).rejects.toThrow('first fails');
      expect(await second).toBeNull();
      expect(steps).toEqual(['first begins', 'first throws', 'second begins']);
    });

    it('shows a committed transaction’s writes to the transaction queued behind it', async () => {
      const project = sampleRow('projects', 'wsp_1');
      const first = tx(async (t) => {
        await t.collections.projects.insert(project);
        await macrotask();
      });
      const second = tx((t) => t.collections.projects.get('wsp_1', project.id));
      await first;
      expect(await second).toEqual(project);
    });

    it('runs read-mode transactions consistently, a token touch included', async () => {
      const token = sampleToken('wsp_1');
      // Found by its hash alone (the workspace has no account here).
      await tx((t) => t.tokens.insert(token, { routeByHash: true }));
      const seen = await store().transaction(
        async (t) => {
          await t.tokens.touch('wsp_1', token.id, at(9));
          return t.tokens.getByHash(token.hash, null);
        },
        { mode: 'read' },
      );
      expect(seen?.lastUsedAt).toBe(at(9));
      expect((await tx((t) => t.tokens.get(token.id)))?.lastUsedAt).toBe(at(9));
    });

    it('rolls back the writes of a read-mode transaction that throws', async () => {
      const token = sampleToken('wsp_1');
      await tx((t) => t.tokens.insert(token));
      await expect(
        store().transaction(
          async (t) => {
            await t.tokens.touch('wsp_1', token.id, at(9));
            throw new Error('the request failed after authenticating');
          },
          { mode: 'read' },
        ),
      ).rejects.toThrow('the request failed after authenticating');
      expect((await tx((t) => t.tokens.get(token.id)))?.lastUsedAt).toBeNull();
    });

    it('carries out a read-mode transaction’s write even when its work catches an error around it', async () => {
      const result = await store().transaction(
        async (t) => {
          try {
            await t.counters.next('wsp_1', 'read-mode');
          } catch {
            // Whatever an adapter does to a write in a read transaction, the write must happen.
          }
          return 'done';
        },
        { mode: 'read' },
      );
      expect(result).toBe('done');
      expect(await tx((t) => t.counters.next('wsp_1', 'read-mode'))).toBe(2);
    });

    it('refuses writes through a transaction that has already ended', async () => {
      let leaked: StorageTx | undefined;
      await tx(async (t) => {
        leaked = t;
      });
      await expect((leaked as StorageTx).counters.next('wsp_1', 'late')).rejects.toThrow();
      expect(await tx((t) => t.counters.next('wsp_1', 'late'))).toBe(1);
    });

    it('answers through spread copies of the transaction and its stores, as wrappers make them', async () => {
      const result = await tx(async (t) => {
        const copy: StorageTx = {
          ...t,
          counters: { ...t.counters },
          collections: { ...t.collections, projects: { ...t.collections.projects } },
        };
        await copy.counters.next('wsp_1', 'spread');
        const missing = await copy.collections.projects.get('ws_none', 'prj_none');
        return { next: await copy.counters.next('wsp_1', 'spread'), missing };
      });
      expect(result).toEqual({ next: 2, missing: null });
    });

    it('rejects transactions started after close', async () => {
      await store().close();
      await expect(store().transaction(async () => 'ran')).rejects.toThrow();
    });
  });
}
