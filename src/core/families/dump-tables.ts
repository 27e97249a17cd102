import type { DumpTable } from '../port/index.js';
import { collectionNames } from './collections.js';

/**
 * Every table a whole-database copy moves, in the order it moves them (referenced rows before the
 * rows that name them): the tenancy tables, each family's collection in the family list's order,
 * then the counters, the signals, who watches what (and the signals filed for them, and how far
 * each user read), and the webhook tables.
 */
export const dumpTables: readonly DumpTable[] = [
  'accounts',
  'workspaces',
  'users',
  'memberships',
  'tokens',
  'sessions',
  ...collectionNames,
  'counters',
  'signals',
  'watchers',
  'watchedEvents',
  'notificationReads',
  'idempotency',
  'webhooks',
  'deliveries',
  'deliveryAttempts',
];
