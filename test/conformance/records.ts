import { describe, expect, it } from 'vitest';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, macrotask, sampleIdempotency, settle } from './fixtures.js';

/** Idempotency records and counters. */
export function recordTests(adapter: AdapterUnderTest): void {
  describe('idempotency records', () => {
    const { tx } = freshStore(adapter);

    it('stores a record per workspace and key, whatever its age', async () => {
      const record = sampleIdempotency('wsp_1', 'k1', at(0));
      await tx((t) => t.idempotency.put(record, at(-3600)));
      expect(await tx((t) => t.idempotency.get('wsp_1', 'k1'))).toEqual(record);
      expect(await tx((t) => t.idempotency.get('wsp_2', 'k1'))).toBeNull();
      expect(await tx((t) => t.idempotency.get('wsp_1', 'k2'))).toBeNull();
    });

    it('stores a record whose body is kept by a signal as that reference', async () => {
      const record = { ...sampleIdempotency('wsp_1', 'k3', at(0)), body: { signalId: 'sig_1' } };
      await tx((t) => t.idempotency.put(record, at(-3600)));
      expect(await tx((t) => t.idempotency.get('wsp_1', 'k3'))).toEqual(record);
    });

    it("refuses a live key with UniqueViolation('idempotency.key') and keeps the first record", async () => {
      const first = sampleIdempotency('wsp_1', 'k1', at(0));
      await tx((t) => t.idempotency.put(first, at(-3600)));
      const second = sampleIdempotency('wsp_1', 'k1', at(10), { fingerprint: 'f2' });
      // Live: created at or after replaceIfBefore.
      await expect(tx((t) => t.idempotency.put(second, at(0)))).rejects.toMatchObject({
        name: 'UniqueViolation',
        what: 'idempotency.key',
      });
      expect(await tx((t) => t.idempotency.get('wsp_1', 'k1'))).toEqual(first);
      await tx((t) => t.idempotency.put(sampleIdempotency('wsp_2', 'k1', at(10)), at(0)));
    });

    it('replaces an expired record', async () => {
      await tx((t) => t.idempotency.put(sampleIdempotency('wsp_1', 'k1', at(0)), at(-3600)));
      const fresh = sampleIdempotency('wsp_1', 'k1', at(100), { fingerprint: 'f2', status: 200 });
      await tx((t) => t.idempotency.put(fresh, at(1)));
      expect(await tx((t) => t.idempotency.get('wsp_1', 'k1'))).toEqual(fresh);
    });

    it('lets exactly one of concurrent puts of one new key succeed', async () => {
      const { fulfilled, rejected } = await settle(
        Array.from({ length: 8 }, (_, i) =>
          tx(async (t) => {
            await macrotask();
            await t.idempotency.put(
              sampleIdempotency('wsp_1', 'k1', at(0), { fingerprint: `f${i}` }),
              at(-60),
            );
            return i;
          }),
        ),
      );
      expect(fulfilled).toHaveLength(1);
      for (const error of rejected) expect(error).toMatchObject({ what: 'idempotency.key' });
      expect((await tx((t) => t.idempotency.get('wsp_1', 'k1')))?.fingerprint).toBe(`f${fulfilled[0]}`);
    });

    it('purges records created before a time, and only those', async () => {
      await tx(async (t) => {
        await t.idempotency.put(sampleIdempotency('wsp_1', 'old', at(0)), at(-1));
        await t.idempotency.put(sampleIdempotency('wsp_1', 'edge', at(10)), at(-1));
        await t.idempotency.put(sampleIdempotency('wsp_2', 'new', at(20)), at(-1));
      });
      expect(await tx((t) => t.idempotency.purge(at(10)))).toBe(1);
      await tx(async (t) => {
        expect(await t.idempotency.get('wsp_1', 'old')).toBeNull();
        expect(await t.idempotency.get('wsp_1', 'edge')).not.toBeNull();
        expect(await t.idempotency.get('wsp_2', 'new')).not.toBeNull();
      });
    });
  });

  describe('counters', () => {
    const { tx } = freshStore(adapter);

    it('counts from 1, each name on its own', async () => {
      expect(await tx((t) => t.counters.next('wsp_1', 'issues:prj_1'))).toBe(1);
      expect(await tx((t) => t.counters.next('wsp_1', 'issues:prj_1'))).toBe(2);
      expect(await tx((t) => t.counters.next('wsp_1', 'issues:prj_2'))).toBe(1);
      expect(await tx((t) => t.counters.next('wsp_1', 'issues:prj_1'))).toBe(3);
    });

    it('hands out distinct values to concurrent transactions', async () => {
      const values = await Promise.all(
        Array.from({ length: 25 }, () =>
          tx(async (t) => {
            await macrotask();
            return t.counters.next('wsp_1', 'c');
          }),
        ),
      );
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it('takes back the values of concurrent transactions that throw: the committed ones leave no gap', async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) =>
          tx(async (t) => {
            const first = await t.counters.next('wsp_1', 'gapless');
            await macrotask();
            const second = await t.counters.next('wsp_1', 'gapless');
            if (i % 3 === 1) throw new Error(`transaction ${i} fails after taking ${first} and ${second}`);
            return [first, second];
          }),
        ),
      );
      const committed = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(13);
      expect(committed.sort((a, b) => a - b)).toEqual(Array.from({ length: 54 }, (_, i) => i + 1));
      expect(await tx((t) => t.counters.next('wsp_1', 'gapless'))).toBe(55);
    });
  });
}
