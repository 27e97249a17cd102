import type {
  Account,
  AdminSession,
  ApiToken,
  DeliveryAttempt,
  IdempotencyRecord,
  Membership,
  SignalEvent,
  User,
  WebhookDelivery,
  WebhookSubscription,
  Workspace,
} from '../model.js';
import type { CollectionRows } from './collection.js';
import type { SubjectEvent, Watch } from './watch-store.js';

/**
 * Every table a whole-database copy moves, with the record type of its rows: the tables every
 * tracker has, and one per collection (named as the collection). The order a copy moves them in
 * is `dumpTables` (derived from the family list, in `families/`).
 */
export type DumpRows = {
  accounts: Account;
  workspaces: Workspace;
  users: User;
  memberships: Membership;
  tokens: ApiToken;
  sessions: AdminSession;
  counters: { workspaceId: string; name: string; value: number };
  signals: SignalEvent;
  watchers: Watch & { accountId: string };
  watchedEvents: SubjectEvent;
  notificationReads: { accountId: string; workspaceId: string; userId: string; readUpTo: number };
  idempotency: IdempotencyRecord;
  webhooks: WebhookSubscription;
  deliveries: WebhookDelivery;
  deliveryAttempts: DeliveryAttempt;
} & CollectionRows;
export type DumpTable = keyof DumpRows;

export interface DumpPage<Table extends DumpTable> {
  rows: DumpRows[Table][];
  /** Where the next page starts (pass it as `after`), or null after the last row. */
  next: string | null;
}

/** Reads a whole database table by table, for `outcome-tracker copy`. */
export interface DumpStore {
  /**
   * Up to `limit` rows of the table, as the stores return them, in an order the adapter fixes
   * (insertion order where it keeps one, so a copy lists ties as the source did), starting after
   * `after` (null: the first row; else the `next` of the previous page, an opaque string).
   * Concurrency contract: the pages read within one transaction return every row of the table
   * exactly once, and a page with `next: null` is the last.
   */
  page<Table extends DumpTable>(table: Table, after: string | null, limit: number): Promise<DumpPage<Table>>;
}
