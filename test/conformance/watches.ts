import { describe, expect, it } from 'vitest';
import type { Watch } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import { at, freshStore } from './fixtures.js';

const watchOf = (subjectId: string, userId: string, reason: Watch['reason'] = 'commenter'): Watch => ({
  workspaceId: 'wsp_1',
  subjectType: 'issue',
  subjectId,
  userId,
  reason,
  since: at(1),
});

/**
 * The watch store's transaction order: a watch a change implies (`start`, which an adapter may
 * send with the commit) and a removal later in the same transaction leave no watch, as the same
 * two steps in two transactions would; a watch started after a removal stays.
 */
export function watchTests(adapter: AdapterUnderTest): void {
  describe('watches within one transaction', () => {
    const { tx } = freshStore(adapter);
    const watching = (subjectId: string, userId: string) =>
      tx((t) => t.watches.get('acc_1', 'wsp_1', subjectId, userId));

    it('ends a watch started earlier in the transaction, by subject and user, by user or by subject', async () => {
      expect(
        await tx(async (t) => {
          await t.watches.start('acc_1', watchOf('iss_1', 'usr_1'));
          return t.watches.remove('acc_1', 'wsp_1', 'iss_1', 'usr_1');
        }),
      ).toBe(true);
      await tx(async (t) => {
        await t.watches.start('acc_1', watchOf('iss_2', 'usr_2', 'assignee'));
        await t.watches.start('acc_1', watchOf('iss_2', 'usr_3'));
        await t.watches.removeUser('acc_1', 'wsp_1', 'usr_2');
        await t.watches.start('acc_1', watchOf('iss_3', 'usr_3'));
        await t.watches.removeSubject('acc_1', 'wsp_1', 'iss_3');
      });
      expect(await watching('iss_1', 'usr_1')).toBeNull();
      expect(await watching('iss_2', 'usr_2')).toBeNull();
      expect(await watching('iss_3', 'usr_3')).toBeNull();
      // What no removal named stays.
      expect(await watching('iss_2', 'usr_3')).toEqual(watchOf('iss_2', 'usr_3'));
    });

    it('keeps a watch started after a removal of the same', async () => {
      await tx((t) => t.watches.add('acc_1', watchOf('iss_1', 'usr_1', 'manual')));
      await tx(async (t) => {
        await t.watches.remove('acc_1', 'wsp_1', 'iss_1', 'usr_1');
        await t.watches.start('acc_1', watchOf('iss_1', 'usr_1'));
      });
      expect(await watching('iss_1', 'usr_1')).toEqual(watchOf('iss_1', 'usr_1'));
    });
  });
}
