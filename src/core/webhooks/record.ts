import type { WebhookSubscription } from '../model.js';
import type { AttemptRecord, StorageTx } from '../port/index.js';
import type { Ids } from '../runtime.js';
import { announce } from './announce.js';
import { webhookEvents } from './events.js';
import { presentWebhook } from './present.js';

/** An attempt's result to record, with what it means for its subscription. */
export interface ResultToRecord extends AttemptRecord {
  subscriptionChanges: Partial<WebhookSubscription> | null;
}

/**
 * Records a batch of attempts' results in one transaction, fenced by their leases, and applies
 * what they mean to their subscriptions. Delivery bookkeeping (the failure streak) changes
 * neither the subscription's version nor its ETag; disabling it (410, or days of failures) is
 * a change like any other: a new version and a `webhook.updated` signal, with no actor, which
 * subscriptions watching `webhook.updated` are sent too. Returns, per result, whether it applied.
 */
export async function recordResults(
  tx: StorageTx,
  ids: Ids,
  now: string,
  results: readonly ResultToRecord[],
  onQueued: () => void,
): Promise<boolean[]> {
  const applied = await tx.deliveries.recordAttempts(results);
  for (const [i, result] of results.entries()) {
    if (!applied[i] || !result.subscriptionChanges) continue;
    await applyToSubscription(tx, ids, now, result, result.subscriptionChanges, onQueued);
  }
  return applied;
}

async function applyToSubscription(
  tx: StorageTx,
  ids: Ids,
  now: string,
  result: ResultToRecord,
  changes: Partial<WebhookSubscription>,
  onQueued: () => void,
): Promise<void> {
  const { accountId, subscriptionId } = result.delivery;
  // Re-read: an admin (or another result of this batch) may have changed it since the claim.
  const current = await tx.webhooks.get(accountId, subscriptionId);
  if (current?.status !== 'active') return;
  if (changes.status === 'disabled') {
    const next: WebhookSubscription = {
      ...current,
      ...changes,
      version: current.version + 1,
      updatedAt: now,
    };
    await tx.webhooks.update(next, current.version);
    const workspaceId = await workspaceOfAccount(tx, accountId, subscriptionId);
    if (workspaceId === null) return;
    await announce(
      tx,
      ids,
      {
        type: webhookEvents.updated,
        occurredAt: now,
        accountId,
        workspaceId,
        actor: { userId: null, tokenId: null },
        resource: { type: 'webhook', id: current.id },
        data: {
          object: presentWebhook(next),
          previous: { status: current.status, disabledReason: current.disabledReason },
        },
      },
      undefined,
      onQueued,
    );
    return;
  }
  // The failure streak only: the same version, so an admin's ETag stays good.
  if (changes.failingSince === undefined) return;
  const streakStarts = changes.failingSince !== null && current.failingSince === null;
  const streakEnds = changes.failingSince === null && current.failingSince !== null;
  if (!streakStarts && !streakEnds) return;
  await tx.webhooks.update({ ...current, failingSince: changes.failingSince }, current.version);
}

/**
 * The workspace a signal about an account's subscription names: the one its first signal named
 * (where it was made), else, once that signal is purged, the account's first workspace.
 */
async function workspaceOfAccount(
  tx: StorageTx,
  accountId: string,
  subscriptionId: string,
): Promise<string | null> {
  const [first] = await tx.signals.list({ accountId, resourceId: subscriptionId, limit: 1 });
  if (first) return first.workspaceId;
  const [workspace] = await tx.tenancy.listWorkspaces(accountId);
  return workspace?.id ?? null;
}
