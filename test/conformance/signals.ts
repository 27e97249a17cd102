import { beforeEach, describe, expect, it } from 'vitest';
import type { SignalEvent } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore, macrotask, sampleSignal } from './fixtures.js';

/** The signal log: sequences, filters, isolation, purge. */
export function signalTests(adapter: AdapterUnderTest): void {
  describe('signals', () => {
    const { tx } = freshStore(adapter);
    // Events are appended to accounts that exist (PostgreSQL keeps each one's latest sequence in its row).
    beforeEach(() =>
      tx(async (t) => {
        for (const id of ['acc_1', 'acc_2', 'acc_3']) {
          await t.tenancy.insertAccount({ id, name: id, createdAt: at(0) });
        }
      }),
    );

    /** Appends, one transaction each: events on iss_1 and iss_2, two types, two accounts. */
    const seed = async () => {
      const appended: SignalEvent[] = [];
      const specs = [
        { accountId: 'acc_1', type: 'issue.created', resource: 'iss_1' },
        { accountId: 'acc_2', type: 'issue.created', resource: 'iss_9' },
        { accountId: 'acc_1', type: 'issue.updated', resource: 'iss_1' },
        { accountId: 'acc_1', type: 'issue.created', resource: 'iss_2' },
        { accountId: 'acc_1', type: 'project.created', resource: 'prj_1' },
      ];
      for (const [i, spec] of specs.entries()) {
        appended.push(
          await tx((t) =>
            t.signals.append(
              sampleSignal(spec.accountId, {
                type: spec.type,
                occurredAt: at(i),
                resource: { type: spec.type.split('.')[0] as string, id: spec.resource },
              }),
            ),
          ),
        );
      }
      return appended;
    };

    it('gives an account’s appended events strictly increasing sequences and returns them as stored', async () => {
      const appended = await seed();
      // Sequences are per account: another account’s may take the same numbers.
      const sequences = appended.filter((e) => e.accountId === 'acc_1').map((e) => e.sequence);
      expect(sequences.every((s, i) => i === 0 || s > (sequences[i - 1] as number))).toBe(true);
      expect(await tx((t) => t.signals.latestSequence('acc_1'))).toBe(sequences.at(-1));
      const first = appended[0] as SignalEvent;
      expect(await tx((t) => t.signals.get('acc_1', first.id))).toEqual(first);
      expect(await tx((t) => t.signals.get('acc_2', first.id))).toBeNull();
    });

    it('stores an event appended with the text of its data as it stores one appended without', async () => {
      const plain = sampleSignal('acc_1', { data: { object: { title: 'Plain "one"', labels: ['a'] } } });
      const texted = sampleSignal('acc_1', { data: { object: { title: 'Texted \\ "two"', labels: [] } } });
      await tx((t) => t.signals.append(plain));
      const appended = await tx((t) => t.signals.append(texted, { data: JSON.stringify(texted.data) }));
      expect(appended).toEqual({ ...texted, sequence: appended.sequence });
      expect(await tx((t) => t.signals.get('acc_1', texted.id))).toEqual(appended);
      const listed = await tx((t) => t.signals.list({ accountId: 'acc_1', limit: 10 }));
      expect(listed.map((event) => event.data)).toEqual([plain.data, texted.data]);
    });

    it('lists one account’s events in ascending sequence, after a sequence, up to a limit', async () => {
      const appended = await seed();
      const mine = appended.filter((e) => e.accountId === 'acc_1');
      expect(await tx((t) => t.signals.list({ accountId: 'acc_1', limit: 100 }))).toEqual(mine);
      const after = (mine[0] as SignalEvent).sequence;
      expect(await tx((t) => t.signals.list({ accountId: 'acc_1', afterSequence: after, limit: 2 }))).toEqual(
        mine.slice(1, 3),
      );
      expect(await tx((t) => t.signals.list({ accountId: 'acc_3', limit: 100 }))).toEqual([]);
    });

    it('filters by types and resource id, and counts matches ignoring afterSequence and limit', async () => {
      const appended = await seed();
      const mine = appended.filter((e) => e.accountId === 'acc_1');
      const created = mine.filter((e) => e.type === 'issue.created' || e.type === 'project.created');
      await tx(async (t) => {
        expect(
          await t.signals.list({
            accountId: 'acc_1',
            types: ['issue.created', 'project.created'],
            limit: 100,
          }),
        ).toEqual(created);
        expect(await t.signals.list({ accountId: 'acc_1', types: [], limit: 100 })).toEqual(mine);
        expect(await t.signals.list({ accountId: 'acc_1', resourceId: 'iss_1', limit: 100 })).toEqual(
          mine.filter((e) => e.resource.id === 'iss_1'),
        );
        expect(await t.signals.count({ accountId: 'acc_1' })).toBe(4);
        expect(await t.signals.count({ accountId: 'acc_1', types: ['issue.created'] })).toBe(2);
        expect(
          await t.signals.count({ accountId: 'acc_1', types: ['issue.created'], resourceId: 'iss_2' }),
        ).toBe(1);
        expect(await t.signals.count({ accountId: 'acc_2' })).toBe(1);
      });
    });

    it('reports 0 as the latest sequence of an empty log', async () => {
      expect(await tx((t) => t.signals.latestSequence('acc_1'))).toBe(0);
    });

    it('purges events that occurred before a time, and later appends still get higher sequences', async () => {
      const appended = await seed();
      expect(await tx((t) => t.signals.purge(at(2)))).toBe(2);
      const left = await tx(async (t) => [
        ...(await t.signals.list({ accountId: 'acc_1', limit: 100 })),
        ...(await t.signals.list({ accountId: 'acc_2', limit: 100 })),
      ]);
      expect(left.map((e) => e.id).sort()).toEqual(
        appended
          .slice(2)
          .map((e) => e.id)
          .sort(),
      );
      const highest = (appended.at(-1) as SignalEvent).sequence;
      expect(await tx((t) => t.signals.latestSequence('acc_1'))).toBe(highest);
      const next = await tx((t) => t.signals.append(sampleSignal('acc_1')));
      expect(next.sequence).toBeGreaterThan(highest);
    });

    it('counts each account’s events, by type, as its log holds them after purges, restores and rollbacks', async () => {
      const filters: (string[] | undefined)[] = [
        undefined,
        ['issue.created'],
        ['project.created', 'issue.created'],
        ['issue.created', 'issue.created'],
        ['comment.created'],
      ];
      const expectCountsOfLog = async () => {
        for (const accountId of ['acc_1', 'acc_2', 'acc_3']) {
          const log = await tx((t) => t.signals.list({ accountId, limit: 1000 }));
          for (const types of filters) {
            const expected = log.filter((e) => !types || types.includes(e.type)).length;
            const counted = await tx((t) => t.signals.count({ accountId, ...(types ? { types } : {}) }));
            expect({ accountId, types, counted }).toEqual({ accountId, types, counted: expected });
          }
        }
      };
      const appended = await seed();
      await expectCountsOfLog();
      await tx((t) => t.signals.purge(at(2)));
      await expectCountsOfLog();
      await expect(
        tx(async (t) => {
          await t.signals.append(sampleSignal('acc_1', { type: 'issue.created' }));
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      await expectCountsOfLog();
      const highest = (appended.at(-1) as SignalEvent).sequence;
      await tx((t) =>
        t.signals.restore({ ...sampleSignal('acc_3', { type: 'issue.created' }), sequence: highest + 10 }),
      );
      await tx((t) => t.signals.continueAfter(highest + 10));
      await tx((t) =>
        t.signals.append(sampleSignal('acc_3', { type: 'project.created', occurredAt: at(9) })),
      );
      await expectCountsOfLog();
      await tx((t) => t.signals.purge(at(100)));
      await expectCountsOfLog();
    });

    it('leaves no event for a rolled-back append', async () => {
      const kept = await tx((t) => t.signals.append(sampleSignal('acc_1')));
      await expect(
        tx(async (t) => {
          await t.signals.append(sampleSignal('acc_1'));
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await tx((t) => t.signals.list({ accountId: 'acc_1', limit: 10 }))).toEqual([kept]);
      expect(await tx((t) => t.signals.latestSequence('acc_1'))).toBe(kept.sequence);
      const next = await tx((t) => t.signals.append(sampleSignal('acc_1')));
      expect(next.sequence).toBeGreaterThan(kept.sequence);
    });

    it('gives concurrent appends from many transactions distinct sequences, increasing in commit order', async () => {
      const commits: number[][] = [];
      await Promise.all(
        Array.from({ length: 20 }, () =>
          tx(async (t) => {
            const mine: number[] = [];
            for (let i = 0; i < 3; i++) {
              mine.push((await t.signals.append(sampleSignal('acc_1'))).sequence);
              await macrotask();
            }
            commits.push(mine);
          }),
        ),
      );
      const inCommitOrder = commits.flat();
      expect(new Set(inCommitOrder).size).toBe(60);
      expect([...inCommitOrder].sort((a, b) => a - b)).toEqual(inCommitOrder);
      const listed = await tx((t) => t.signals.list({ accountId: 'acc_1', limit: 100 }));
      expect(listed.map((e) => e.sequence)).toEqual(inCommitOrder);
    });
  });
}
