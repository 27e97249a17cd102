import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { signalStream } from '../../src/core/families/signals/operations.js';
import type { SignalEvent } from '../../src/core/model.js';
import { authorityRecheckMs } from '../../src/core/pipeline/authority.js';
import type { AfterCommitDeps } from '../../src/core/pipeline/reply.js';
import type { Storage, StorageTx } from '../../src/core/port/index.js';

/** `count` events of one account, sequences 1…count. */
const eventsUpTo = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `sig_${i + 1}`, sequence: i + 1, type: 'issue.created' }));

/**
 * Deps over a fake storage: every step (a read of events, a re-check of the grant, a wait) is
 * logged in order, with the transaction it ran in.
 */
function recordingDeps(events: { id: string; sequence: number; type: string }[], lostAtCheck: number) {
  const log: string[] = [];
  let transactions = 0;
  let checks = 0;
  const storage = {
    transaction: async (fn: (tx: StorageTx) => Promise<unknown>) => {
      const txNumber = ++transactions;
      const tx = {
        txNumber,
        signals: {
          list: async ({ afterSequence, limit }: { afterSequence: number; limit: number }) => {
            log.push(`list in tx ${txNumber}`);
            return events
              .filter((e) => e.sequence > afterSequence)
              .slice(0, limit) as unknown as SignalEvent[];
          },
        },
      };
      return fn(tx as unknown as StorageTx);
    },
    close: async () => {},
  } as unknown as Storage;
  const deps: AfterCommitDeps = {
    storage,
    nowMs: () => 0,
    waitForChange: async (ms) => {
      log.push(`wait ${ms}`);
    },
    grantLost: async (tx) => {
      checks++;
      log.push(`check in tx ${(tx as unknown as { txNumber: number }).txNumber}`);
      return checks >= lostAtCheck
        ? new ApiError(401, 'unauthorized', 'This API token has been revoked.')
        : null;
    },
  };
  return { deps, log };
}

async function drain(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe('the signal stream re-checks its grant', () => {
  it('in the transaction of each batch it sends, after reading it, and waits at most the re-check interval while idle', async () => {
    const { deps, log } = recordingDeps(eventsUpTo(250), 6);
    const sent = await drain(signalStream(deps, { accountId: 'acct_1' }, 0));
    // Batches of 100, 100, 50, then idle reads until the grant is lost at the sixth check.
    expect(log).toEqual([
      'list in tx 1',
      'check in tx 1',
      'list in tx 2',
      'check in tx 2',
      'list in tx 3',
      'check in tx 3',
      `wait ${authorityRecheckMs}`,
      'list in tx 4',
      'check in tx 4',
      `wait ${authorityRecheckMs}`,
      'list in tx 5',
      'check in tx 5',
      `wait ${authorityRecheckMs}`,
      'list in tx 6',
      'check in tx 6',
    ]);
    expect(authorityRecheckMs).toBeLessThanOrEqual(500);
    expect(sent.filter((chunk) => chunk.startsWith('id: '))).toHaveLength(250);
    expect(sent[sent.length - 1]).toBe(': closed: 401 unauthorized: This API token has been revoked.\n\n');
  });

  it('sends none of a batch read in the snapshot where the grant is already lost', async () => {
    const { deps } = recordingDeps(eventsUpTo(3), 1);
    const sent = await drain(signalStream(deps, { accountId: 'acct_1' }, 0));
    expect(sent).toEqual([
      'retry: 2000\n\n',
      ': closed: 401 unauthorized: This API token has been revoked.\n\n',
    ]);
  });
});
