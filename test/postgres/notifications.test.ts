import { describe, expect, it } from 'vitest';
import { batchedNotifier, notifyParams, parsePayload } from '../../src/adapters/postgres/notifications.js';

describe('PostgreSQL change notifications', () => {
  it('read whether the commit queued deliveries, and say nothing of it for an older payload', () => {
    expect(parsePayload('abc/q:acc_1')).toEqual({
      origin: 'abc',
      accountId: 'acc_1',
      deliveriesQueued: true,
    });
    expect(parsePayload('abc/-:acc_1')).toEqual({
      origin: 'abc',
      accountId: 'acc_1',
      deliveriesQueued: false,
    });
    expect(parsePayload('abc:acc_1')).toEqual({
      origin: 'abc',
      accountId: 'acc_1',
      deliveriesQueued: undefined,
    });
    expect(parsePayload('garbage')).toBeUndefined();
  });

  it('batch accounts, an account queued in any commit of the batch marked queued', async () => {
    const sent: [string[], string[]][] = [];
    const notifier = batchedNotifier(async (accounts) => {
      sent.push(notifyParams(accounts));
    });
    notifier.add(new Map([['acc_1', true]]));
    notifier.add(new Map([['acc_1', false]]));
    notifier.add(new Map([['acc_2', false]]));
    await notifier.flushed();
    expect(sent).toEqual([
      [
        ['acc_1', 'acc_2'],
        ['q', '-'],
      ],
    ]);
  });
});
