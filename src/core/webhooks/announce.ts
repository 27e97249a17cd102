import type { SignalEvent } from '../model.js';
import type { EventText, StorageTx } from '../port/index.js';
import type { Ids } from '../runtime.js';
import { enqueueDeliveries } from './outbox.js';

/**
 * Appends a signal and queues the webhook deliveries it causes, in the caller's transaction: what
 * every change announces, from an operation (`OperationContext.emit`) or from the dispatcher (a
 * subscription it disables). `deliveriesQueued` is told when some were queued, so the dispatcher
 * wakes after the commit.
 */
export async function announce(
  tx: StorageTx,
  ids: Ids,
  event: Omit<SignalEvent, 'id' | 'sequence'>,
  text?: EventText,
  deliveriesQueued?: () => void,
): Promise<SignalEvent> {
  const appended = await tx.signals.append({ id: ids.uuid(), ...event }, text);
  if ((await enqueueDeliveries(tx, ids, appended)) > 0) deliveriesQueued?.();
  return appended;
}
