import type { DumpRows } from '../../core/port/index.js';

/** A counters row as both SQL adapters store it: its workspace, its name and its last value. */
export interface CounterRow {
  workspace_id: string;
  name: string;
  value: number;
}

/** A counters row as the dump gives it. */
export const toCounter = (r: CounterRow): DumpRows['counters'] => ({
  workspaceId: r.workspace_id,
  name: r.name,
  value: r.value,
});
