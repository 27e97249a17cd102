import type { RowRead } from '../../core/port/index.js';
import { type IssueCounted, PendingIssueCounts } from './counts/issue-counts.js';

/**
 * What the stores of one transaction tell each other (Conn.memo): an answer read ahead in an
 * earlier round trip, a lock held, a key claimed. Each field is one store's to set and another's
 * (or its own) to read; a transaction starts with an empty memo, and a re-run with a new one.
 */
export class TransactionMemo {
  /** The row the transaction was told it reads first, until its grant reads it (tenancy.ts). */
  readsFirst: RowRead | undefined;
  /** The Idempotency-Key a write transaction was told it claims first, until its grant claims it. */
  claimsKey: string | undefined;
  /** The grant round trip's claim of that key, for IdempotencyStore.get (records.ts). */
  claimedAhead: ClaimedAhead | undefined;
  /** The workspace and account the transaction's token was granted, for a create's locks. */
  granted: Granted | undefined;
  /** Keys this transaction claimed (idempotency-claims.ts), by claimId. */
  readonly claims = new Map<string, Claim>();
  /**
   * Rows read ahead with the grant, by aheadRowKey: the stored row, or null when the workspace
   * has none. Taken once, by the first read of the row (collections.ts).
   */
  readonly aheadRows = new Map<string, AheadRow | null>();
  /** Every version of a row this write transaction read, by table and id (readKey). */
  readonly readVersions = new Map<string, number[]>();
  /** The labels an issue had when this transaction last read or wrote it, by id. */
  readonly issueLabels = new Map<string, readonly string[]>();
  /** An issue's counted fields (counts/issue-counts.ts) when this transaction last read or wrote it, by id. */
  readonly issueCounted = new Map<string, IssueCounted>();
  /** What this transaction's issue writes changed in the kept counts of issues, for its COMMIT. */
  readonly issueCounts = new PendingIssueCounts();
  /** The predicate locks held (see collections.ts predicateLock), by predicateKey. */
  readonly predicateLocks = new Map<string, 'shared' | 'exclusive'>();
  /** Whether the transaction took a number from a counter (records.ts). */
  numberTaken = false;
  /** The append drawn ahead for an account (signals.ts), by account. */
  readonly drawnAhead = new Map<string, DrawnAhead>();
  /** The active subscriptions an append read for its event, by activeHooksKey, for the outbox. */
  readonly activeHooks = new Map<string, string[]>();
  /** The times accounts were lowered to in `due_accounts` with the COMMIT (webhooks.ts), by account. */
  readonly loweredDue = new Map<string, string>();
}

/** A key claimed in the grant's round trip: its workspace and whether the claim inserted it. */
export interface ClaimedAhead {
  workspaceId: string;
  key: string;
  claimed: boolean;
}

/** The workspace and account a transaction's token was granted (for a create's locks: records.ts). */
export interface Granted {
  workspaceId: string;
  accountId: string;
}

/**
 * A key this transaction claimed: whether an answer was stored under it yet, and how to take
 * back the statement that gives it back at the commit (an answered key needs none: the answer
 * replaced the placeholder, which that statement alone would match).
 */
export interface Claim {
  answered: boolean;
  withdrawGiveBack: () => void;
}

/** A row read ahead with the token's grant: its stored text and version. */
export interface AheadRow {
  data: string;
  version: number;
}

/** An account's append drawn ahead (signals.ts): its sequence and active subscriptions. */
export interface DrawnAhead {
  sequence: number;
  /** The account's active subscriptions: each one's text and the event types it wants. */
  hooks: { data: string; types: string[] }[];
}

/** The name of the row a transaction read ahead: its table, workspace and id. */
export const aheadRowKey = (table: string, workspaceId: string, id: string): string =>
  `${table}\u0000${workspaceId}\u0000${id}`;

/** The name of a predicate lock (see collections.ts predicateLock): its table and workspace. */
export const predicateKey = (table: string, workspaceId: string): string => `${table}:${workspaceId}`;

/** The name of the subscriptions an append read for an event type of an account. */
export const activeHooksKey = (accountId: string, type: string): string => `${accountId}\u0000${type}`;
