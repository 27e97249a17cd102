import { issueEvents } from './families/issues/events.js';
import { presentIssue } from './families/issues/operations.js';
import { outcomeEvents } from './families/outcomes/events.js';
import { presentOutcome } from './families/outcomes/operations.js';
import { openIssueStatuses, openOutcomeStatuses } from './model.js';
import { operationContext, type Services } from './pipeline/context.js';
import type { DueCollection, OverdueRule, Storage } from './port/index.js';
import { type Ids, isoTime } from './runtime.js';

/** How many rows one look finds: each is claimed and signalled in a transaction of its own. */
const batchSize = 100;

/** What each collection signals, and which of its statuses are still open. */
const sweeps: readonly {
  collection: DueCollection;
  type: string;
  resourceType: string;
  statuses: readonly string[];
  present: (row: never) => unknown;
}[] = [
  {
    collection: 'issues',
    type: issueEvents.overdue,
    resourceType: 'issue',
    statuses: openIssueStatuses,
    present: presentIssue,
  },
  {
    collection: 'outcomes',
    type: outcomeEvents.overdue,
    resourceType: 'outcome',
    statuses: openOutcomeStatuses,
    present: presentOutcome,
  },
];

export interface OverdueSweepDeps {
  storage: Storage;
  ids: Ids;
  services: Services;
  /** Told the account of each committed signal (event streams and the dispatcher wake). */
  committed(accountId: string): void;
}

/**
 * Signals `issue.overdue` / `outcome.overdue` for every open, unarchived row whose due day is
 * before `nowMs`'s day (UTC): once per row and due day, however many processes sweep one
 * database at once. Each row is claimed (its `overdue_signalled_for` set to the day) in the
 * transaction that records its signal, so a sweep that loses the race, or rolls back, emits
 * nothing; a day moved later passes again. Returns how many signals this sweep recorded.
 */
export async function sweepOverdue(deps: OverdueSweepDeps, nowMs: number): Promise<number> {
  const now = isoTime(nowMs);
  const rule: OverdueRule = { before: now.slice(0, 10), statuses: [] };
  let signalled = 0;
  for (const sweep of sweeps) {
    const sweepRule = { ...rule, statuses: sweep.statuses };
    for (;;) {
      const found = await deps.storage.transaction(
        (tx) => tx.overdue.findDue(sweep.collection, sweepRule, batchSize),
        { mode: 'read' },
      );
      let claimed = 0;
      for (const candidate of found) {
        const emitted = await deps.storage.transaction(async (tx) => {
          const row = await tx.overdue.claim(
            sweep.collection,
            candidate.workspaceId,
            candidate.id,
            sweepRule,
          );
          if (row === null) return false;
          const tenant = {
            accountId: candidate.accountId,
            workspaceId: candidate.workspaceId,
            actor: { userId: null, tokenId: null },
          };
          await operationContext(tx, now, deps.ids, tenant, null, deps.services).emit({
            type: sweep.type,
            resource: { type: sweep.resourceType, id: row.id },
            data: { object: sweep.present(row as never) },
          });
          return true;
        });
        if (!emitted) continue;
        claimed += 1;
        deps.committed(candidate.accountId);
      }
      signalled += claimed;
      // A short batch was the last; a batch claimed by other sweeps alone leaves them the rest.
      if (found.length < batchSize || claimed === 0) break;
    }
  }
  return signalled;
}
