import type { DumpTable } from '../port/index.js';

/**
 * Every table a whole-database copy moves, with the record type of its rows, in the order the
 * copy moves them (referenced rows before the rows that name them).
 */
export const dumpTables = [
  'accounts',
  'workspaces',
  'users',
  'memberships',
  'tokens',
  'sessions',
  'projects',
  'outcomes',
  'issues',
  'context',
  'decisions',
  'timeEntries',
  'comments',
  'issueRelations',
  'counters',
  'signals',
  'idempotency',
  'webhooks',
  'deliveries',
  'deliveryAttempts',
] as const satisfies readonly DumpTable[];
