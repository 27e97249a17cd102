import type { DumpRows } from '../../core/port/index.js';
import { type CounterRow, toCounter } from './counter-rows.js';
import { type SessionRow, toSession } from './session-rows.js';
import { tenancyRecords } from './tenancy-rows.js';

type Row = Record<string, unknown>;

/** The tables both SQL adapters keep in columns (not as a JSON `data`), which their dumps read alike. */
type ColumnTable = keyof typeof tenancyRecords | 'sessions' | 'counters';

/** How a dumped row of each of those tables becomes the record the stores return. */
export const columnRecords: { [Table in ColumnTable]: (row: Row) => DumpRows[Table] } = {
  ...tenancyRecords,
  sessions: (r) => toSession(r as unknown as SessionRow),
  counters: (r) => toCounter(r as unknown as CounterRow),
};
