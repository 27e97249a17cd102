import type { DueCollection, OverdueCandidate, OverdueRule, OverdueStore } from '../../core/port/index.js';
import type { IndexedRows } from './collection.js';
import { clone, type RecordUndo, setWithUndo } from './undo.js';

/** The field a collection falls due by. */
const dueField = { issues: 'dueOn', outcomes: 'dueDate' } as const;

export interface OverdueState {
  collections: { issues: IndexedRows<'issues'>; outcomes: IndexedRows<'outcomes'> };
  /** The due day each row was last signalled overdue for, by `<collection>:<id>`. */
  overdueSignalled: Map<string, string>;
  /** A workspace's account. */
  accountOf(workspaceId: string): string | undefined;
}

/** Whether a row is overdue under the rule and not yet signalled for its due day. */
function isUnsignalledOverdue(
  state: OverdueState,
  collection: DueCollection,
  row: unknown,
  rule: OverdueRule,
) {
  const record = row as Record<string, unknown> & { id: string; status: string; archivedAt: string | null };
  const due = record[dueField[collection]] as string | null;
  return (
    due !== null &&
    due < rule.before &&
    rule.statuses.includes(record.status) &&
    record.archivedAt === null &&
    state.overdueSignalled.get(`${collection}:${record.id}`) !== due
  );
}

/**
 * The overdue sweep's rows in memory: each workspace's rows are walked in due-day order (the sort
 * index every list sorted by the day reads), up to the first day not yet passed.
 */
export function memoryOverdue(state: OverdueState, record: RecordUndo): OverdueStore {
  return {
    async findDue(collection, rule, limit) {
      const rows = state.collections[collection] as IndexedRows<DueCollection>;
      const found: (OverdueCandidate & { due: string })[] = [];
      for (const workspaceId of rows.workspaces.keys()) {
        const accountId = state.accountOf(workspaceId);
        if (accountId === undefined) continue;
        for (const id of rows.sortedRows(workspaceId, dueField[collection]).walk('asc')) {
          const row = rows.rows.get(id) as Record<string, unknown> | undefined;
          const due = row?.[dueField[collection]] as string | null | undefined;
          if (!row || due === null || due === undefined || due >= rule.before) break;
          if (isUnsignalledOverdue(state, collection, row, rule))
            found.push({ accountId, workspaceId, id, due });
        }
      }
      found.sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0));
      return found.slice(0, limit).map(({ accountId, workspaceId, id }) => ({ accountId, workspaceId, id }));
    },
    async claim(collection, workspaceId, id, rule) {
      const row = state.collections[collection].rows.get(id);
      if (!row || row.workspaceId !== workspaceId || !isUnsignalledOverdue(state, collection, row, rule))
        return null;
      const due = (row as unknown as Record<string, string>)[dueField[collection]] as string;
      setWithUndo(state.overdueSignalled, `${collection}:${id}`, due, record);
      return clone(row) as never;
    },
  };
}
