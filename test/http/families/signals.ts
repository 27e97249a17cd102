import type { SignalEvent } from '../../../src/core/index.js';
import type { TestServer } from '../harness.js';

/** Every signal of the main account so far, in sequence order. */
export const signalsOf = (s: TestServer): Promise<SignalEvent[]> =>
  s.storage.transaction((tx) => tx.signals.list({ accountId: s.ws.accountId, limit: 1000 }));

/** Runs `action` and returns the types of the signals it wrote to the main account. */
export async function signalTypesOf(s: TestServer, action: () => Promise<unknown>): Promise<string[]> {
  const before = (await signalsOf(s)).length;
  await action();
  return (await signalsOf(s)).slice(before).map((e) => e.type);
}
