import type {
  Account,
  AdminSession,
  ApiToken,
  Comment,
  ContextItem,
  Decision,
  DeliveryAttempt,
  IdempotencyRecord,
  Issue,
  IssueRelation,
  Membership,
  Outcome,
  Project,
  Role,
  SignalEvent,
  TimeEntry,
  User,
  WebhookDelivery,
  WebhookSubscription,
  Workspace,
} from './model.js';
import type { RateLimitStore } from './pipeline/rate-limit.js';
import type { StorageTimeStore } from './pipeline/storage-time.js';
import type { SortKey } from './sort-keys.js';

/**
 * The storage port: what every adapter (memory, SQLite, later PostgreSQL) implements.
 * Adapters store and query; they hold no business rules. The conformance suite in
 * `test/conformance` holds every adapter to the contracts documented here.
 */
export interface Storage {
  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back every write made
   * through `tx` when it throws, and rethrows.
   *
   * Concurrency contract: transactions are serializable. Two transactions never interleave
   * on one connection across an `await`: an adapter with a single connection queues them, so
   * a transaction that reads a row it then writes cannot be overtaken by another one.
   * `mode: 'read'` is a hint that `fn` only reads (a token touch excepted); adapters may run
   * such transactions more cheaply but must keep them consistent.
   *
   * An adapter may run `fn` more than once, each run from the start in a new transaction, before
   * it answers (PostgreSQL after a lost race, SQLite when another member of a group commit failed
   * after writing): only the last run's writes and result count, so `fn` must have no effect
   * outside the transaction.
   */
  transaction<T>(fn: (tx: StorageTx) => Promise<T>, options?: { mode?: 'read' | 'write' }): Promise<T>;
  /** Releases connections. Transactions started afterwards reject. */
  close(): Promise<void>;
  /**
   * Commits made by other processes sharing the database, for an adapter that has any (the
   * PostgreSQL one): event streams wake on them instead of waiting for their next poll.
   */
  changes?: ChangeSource;
  /**
   * Where the rate limit keeps its admissions, for an adapter whose database several processes
   * share: the tracker uses it unless told otherwise, so every process enforces one limit.
   */
  rateLimits?: RateLimitStore;
  /**
   * Where each account's share of storage time is kept, for an adapter whose database several
   * processes share: the tracker uses it unless told otherwise, so an account gets one share
   * however many processes serve it.
   */
  storageTimes?: StorageTimeStore;
}

/** Tells a process about commits that appended signals, its own and other processes'. */
export interface ChangeSource {
  /**
   * Calls `listener` with the account of each committed transaction that appended signals (or
   * queued webhook deliveries), soon after the commit. A hint only: a listener may miss some (a lost connection), so readers keep
   * polling too; a rolled-back transaction is never announced. Returns the unsubscribe function.
   */
  subscribe(listener: (accountId: string, change?: ChangeNotice) => void): () => void;
}

/** What a source knows of an announced commit besides its account. */
export interface ChangeNotice {
  /**
   * Whether the commit queued webhook deliveries (inserted some, or made one due): `false` lets
   * the webhook dispatcher sleep on, since no claim could find work the commit made. Absent when
   * the source cannot tell (an older process's notification): the dispatcher wakes.
   */
  deliveriesQueued?: boolean;
}

/**
 * Raised by `Storage.transaction` when an adapter that re-runs transactions which lost a race
 * with another (a serialization failure, a deadlock) has re-run one as often as it may. Nothing
 * of it was committed; the caller may try again a little later (HTTP: 503 transient_conflict).
 */
export class TransientConflict extends Error {
  constructor(
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(`the transaction conflicted with concurrent ones ${attempts} times in a row`, options);
    this.name = 'TransientConflict';
  }
}

/** The data families stored as generic, workspace-scoped, versioned collections. */
export interface CollectionRows {
  projects: Project;
  issues: Issue;
  outcomes: Outcome;
  context: ContextItem;
  decisions: Decision;
  timeEntries: TimeEntry;
  comments: Comment;
  issueRelations: IssueRelation;
}
export type CollectionName = keyof CollectionRows;

/**
 * What an adapter must know of each collection: which fields it filters on (equality, so
 * adapters index them) and which text fields `search` looks in. Field names are the
 * record's camelCase names.
 */
export interface CollectionDefinition<Name extends CollectionName> {
  filters: readonly (keyof CollectionRows[Name] & string)[];
  search: readonly (keyof CollectionRows[Name] & string)[];
  /** Fields a list may bound by a range (inclusive both ends). */
  ranges: readonly (keyof CollectionRows[Name] & string)[];
  /** Numeric fields a list may sum over all matching rows. */
  sums: readonly (keyof CollectionRows[Name] & string)[];
  /**
   * Nullable filter fields a list may ask to be set (`notNull`), null in most rows (`archivedAt`):
   * adapters index the rows where they are set, so that both those rows and a total of the rows
   * where they are null (all the rows less those) stay index reads.
   */
  notNull: readonly (keyof CollectionRows[Name] & string)[];
  /**
   * Fields a list may sort by besides `createdAt` (`sort`), each with a column and an index on
   * (workspace, its sort key, id). `updatedAt` has its column already.
   */
  sorts: readonly (keyof CollectionRows[Name] & string)[];
}

export const collectionDefinitions = {
  projects: {
    filters: ['key'],
    search: ['name', 'description'],
    ranges: [],
    sums: [],
    notNull: [],
    sorts: ['updatedAt'],
  },
  issues: {
    filters: [
      'projectId',
      'outcomeId',
      'status',
      'severity',
      'assigneeId',
      'number',
      'parentId',
      'archivedAt',
    ],
    search: ['title', 'description'],
    ranges: [],
    sums: [],
    notNull: ['archivedAt'],
    sorts: ['updatedAt', 'number', 'severity', 'status', 'title'],
  },
  outcomes: {
    filters: ['projectId', 'status', 'ownerId', 'archivedAt'],
    search: ['title', 'description'],
    ranges: [],
    sums: [],
    notNull: ['archivedAt'],
    sorts: ['dueDate', 'updatedAt', 'title'],
  },
  context: {
    filters: ['outcomeId', 'kind'],
    search: [],
    ranges: [],
    sums: [],
    notNull: [],
    sorts: ['updatedAt'],
  },
  decisions: {
    filters: ['projectId', 'outcomeId', 'status', 'supersededBy'],
    search: [],
    ranges: [],
    sums: [],
    notNull: [],
    sorts: ['updatedAt'],
  },
  timeEntries: {
    filters: ['outcomeId', 'issueId', 'userId'],
    search: [],
    ranges: ['date'],
    sums: ['minutes'],
    notNull: [],
    sorts: ['date', 'minutes'],
  },
  comments: {
    filters: ['issueId', 'outcomeId', 'decisionId', 'authorId'],
    search: [],
    ranges: [],
    sums: [],
    notNull: [],
    sorts: ['updatedAt'],
  },
  issueRelations: {
    filters: ['sourceId', 'targetId', 'type'],
    search: [],
    ranges: [],
    sums: [],
    notNull: [],
    sorts: [],
  },
} as const satisfies { [Name in CollectionName]: CollectionDefinition<Name> };

type Defined<
  Name extends CollectionName,
  Kind extends keyof CollectionDefinition<Name>,
> = (typeof collectionDefinitions)[Name][Kind] extends readonly (infer F)[] ? F & string : never;

export type FilterValue = string | number | null;

/**
 * What a filter field must be: one value (`null` for a null field), any of a list (`IN`, an
 * empty list matching nothing), or none of a list (`{ not }`; a null field is none of them).
 */
export type FilterMatch = FilterValue | readonly FilterValue[] | { not: readonly FilterValue[] };

/** Whether a row's value meets a filter (the memory adapter's reading of `FilterMatch`). */
export function meetsFilter(value: unknown, filter: FilterMatch): boolean {
  if (Array.isArray(filter)) return filter.includes((value ?? null) as FilterValue);
  if (filter !== null && typeof filter === 'object') {
    return !(filter as { not: readonly FilterValue[] }).not.includes((value ?? null) as FilterValue);
  }
  return value === filter;
}

/**
 * Labels an issue list asks for: every one of `all` and at least one of `any` (an empty `any`
 * matches nothing). Adapters read them from an index of (workspace, label, issue).
 */
export interface LabelMatch {
  all?: readonly string[];
  any?: readonly string[];
}

/** Whether a row's labels meet a label filter (the memory adapter's and the models' reading). */
export function meetsLabels(labels: readonly string[], match: LabelMatch): boolean {
  if (match.all && !match.all.every((label) => labels.includes(label))) return false;
  if (match.any && !match.any.some((label) => labels.includes(label))) return false;
  return true;
}

/** A list query over one collection within one workspace. */
export interface ListQuery<Name extends CollectionName> {
  workspaceId: string;
  /** Equality on the collection's filter fields; `null` matches a null field; see FilterMatch. */
  where?: Partial<Record<Defined<Name, 'filters'>, FilterMatch>>;
  /** Inclusive bounds on the collection's range fields. */
  range?: Partial<Record<Defined<Name, 'ranges'>, { gte?: string | number; lte?: string | number }>>;
  /** Fields that must be set (not null), among the collection's `notNull` fields. */
  notNull?: readonly Defined<Name, 'notNull'>[];
  /** A numeric field to sum over every matching row (not just the page). */
  sum?: Defined<Name, 'sums'>;
  /** Inclusive lower / exclusive upper bounds on `createdAt` and on `updatedAt`. */
  createdAfter?: string;
  createdBefore?: string;
  updatedSince?: string;
  updatedBefore?: string;
  /** Case-insensitive substring match over the collection's search fields. */
  search?: string;
  /** Issues only (other collections refuse it): the labels a row must carry; see LabelMatch. */
  labels?: LabelMatch;
  /**
   * `desc` (the default): newest first, (createdAt desc, id desc); `asc`: oldest first,
   * (createdAt asc, id asc). `after` and the rows follow the same order.
   */
  order?: 'asc' | 'desc';
  /** Keyset position: only rows strictly after it in the list's order. */
  after?: { createdAt: string; id: string };
  /**
   * Another order than creation time: (sort key, id) ascending or descending, the sort key as
   * `sortKeyOf` makes it of the field (a rank for an enum, a stand-in for null). `order` and
   * `after` are then ignored; `afterKey` is the keyset position.
   */
  sort?: { field: Defined<Name, 'sorts'>; order: 'asc' | 'desc' };
  afterKey?: { key: SortKey; id: string };
  /**
   * With `sort`: the rows returned (not those `total` counts) are only those with `updatedAt` at
   * or before this instant. A row changed after a list's first page may have moved behind its
   * cursor; left out of the later pages, it never comes twice.
   */
  unchangedSince?: string;
  limit: number;
}

export interface ListResult<Row> {
  /** At most `limit` rows, ordered by createdAt then id, descending unless the query says `asc`. */
  rows: Row[];
  /** How many rows match the query's filters, ignoring `after` and `limit`. */
  total: number;
  /** With `sum`: the sum of that field over the same rows `total` counts. */
  sum?: number;
}

/** Raised by `collection.update` when the stored version is not the expected one. */
export class VersionMismatch extends Error {
  constructor(readonly current: number | null) {
    super('version mismatch');
    this.name = 'VersionMismatch';
  }
}

/** Raised by an insert that breaks a uniqueness rule (a workspace slug, a project key…). */
export class UniqueViolation extends Error {
  constructor(readonly what: string) {
    super(`unique violation: ${what}`);
    this.name = 'UniqueViolation';
  }
}

/** A row as the API shows it, serialized (see Collection.getJson). */
export interface StoredJson {
  json: string;
  version: number;
}

export interface Collection<Name extends CollectionName, Row = CollectionRows[Name]> {
  /**
   * Inserts a new row; throws UniqueViolation when the id (or a unique key) exists. `json`, when
   * given, is what JSON.stringify makes of `row`, made by the caller already: an adapter that
   * stores the row as text may store it as it is.
   */
  insert(row: Row, json?: string): Promise<void>;
  /** The row with this id in this workspace, or null: another workspace's id is not found. */
  get(workspaceId: string, id: string): Promise<Row | null>;
  /**
   * The same row as the API shows it, already serialized: the JSON text `JSON.stringify` makes of
   * the row without its `workspaceId`, byte for byte, with the row's version (its ETag). A read
   * can send it without parsing and serializing the row again. Null as `get` is null.
   */
  getJson(workspaceId: string, id: string): Promise<StoredJson | null>;
  /** The first row whose fields equal `where` in this workspace, or null. */
  findOne(workspaceId: string, where: ListQuery<Name>['where']): Promise<Row | null>;
  /**
   * Replaces the row when its stored version equals `expectedVersion` (compare-and-set).
   * Concurrency contract: of concurrent updates expecting the same version, exactly one
   * succeeds; the others throw VersionMismatch carrying the current version (null if gone).
   */
  update(row: Row, expectedVersion: number): Promise<void>;
  /** Deletes the row; returns whether it existed in this workspace. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes every row of the workspace whose fields equal `where`; returns the deleted rows. */
  deleteWhere(workspaceId: string, where: ListQuery<Name>['where']): Promise<Row[]>;
  /** How many rows of the workspace have fields equal to `where`. */
  count(workspaceId: string, where: ListQuery<Name>['where']): Promise<number>;
  /** Rows matching the query, newest first (oldest first with `order: 'asc'`), with the count of all matches. */
  list(query: ListQuery<Name>): Promise<ListResult<Row>>;
}

export interface TenancyStore {
  insertAccount(account: Account): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  /** Throws UniqueViolation('workspace.slug') when the slug is taken. */
  insertWorkspace(workspace: Workspace): Promise<void>;
  getWorkspace(id: string): Promise<Workspace | null>;
  getWorkspaceBySlug(slug: string): Promise<Workspace | null>;
  /** Every workspace, oldest first (for the operator's CLI, not for API requests). */
  listWorkspaces(): Promise<Workspace[]>;
  /** Throws UniqueViolation('user.email') when the email is taken (emails compare case-insensitively). */
  insertUser(user: User): Promise<void>;
  getUser(id: string): Promise<User | null>;
  getUserByEmail(email: string): Promise<User | null>;
  updateUser(user: User): Promise<void>;
  /** Creates or replaces the user's membership of the workspace. */
  putMembership(membership: Membership): Promise<void>;
  getMembership(workspaceId: string, userId: string): Promise<Membership | null>;
  /**
   * Replaces the membership when its stored version equals `expectedVersion` (compare-and-set).
   * Concurrency contract: of concurrent updates expecting the same version, exactly one
   * succeeds; the others throw VersionMismatch carrying the current version (null if gone).
   */
  updateMembership(membership: Membership, expectedVersion: number): Promise<void>;
  removeMembership(workspaceId: string, userId: string): Promise<boolean>;
  listMemberships(workspaceId: string): Promise<Membership[]>;
  /** The user's memberships, of every workspace, in the order the user joined (then by workspace id). */
  listUserMemberships(userId: string): Promise<Membership[]>;
  /**
   * One keyset page of the workspace's memberships, newest first (createdAt desc, then userId
   * desc; `after.id` is a userId), optionally of one role, with the count of all matches.
   * The last-admin rule counts admins with it inside the same serializable transaction as
   * the change, so two admins demoting each other at once cannot leave the workspace without one.
   */
  listMembers(query: {
    workspaceId: string;
    role?: Role;
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<Membership>>;
}

/**
 * What authentication reads of a token: no name, hash or display digits. Every request reads it,
 * and each column more is a string made for nothing.
 */
export type TokenCredentials = Pick<
  ApiToken,
  'id' | 'workspaceId' | 'userId' | 'scope' | 'lastUsedAt' | 'revokedAt' | 'expiresAt'
>;

/** The token's credentials from its hash, with what stands behind them now. */
export function credentialsOf(token: ApiToken): TokenCredentials {
  const { id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt } = token;
  return { id, workspaceId, userId, scope, lastUsedAt, revokedAt, expiresAt };
}

/** A token with what stands behind it now: who may use it, as of the reading transaction's snapshot. */
export interface TokenGrant {
  token: TokenCredentials;
  /** The token's user's role in the token's workspace; null once the user is no longer a member. */
  role: Role | null;
  /** The account of the token's workspace; null once the workspace is gone. */
  accountId: string | null;
}

export interface TokenStore {
  insert(token: ApiToken): Promise<void>;
  /** The token whose hash this is, revoked or not. */
  getByHash(hash: string): Promise<ApiToken | null>;
  /**
   * The token whose hash this is (revoked or not) with its user's membership role and its
   * workspace's account, or null for an unknown hash. Every request authenticates with it, so
   * adapters answer it in one read; concurrency contract: the three parts are of one snapshot
   * (the caller's transaction), so a role change or removal committed before it is seen.
   */
  grantOf(hash: string): Promise<TokenGrant | null>;
  get(id: string): Promise<ApiToken | null>;
  /** The workspace's tokens, newest first. */
  list(workspaceId: string): Promise<ApiToken[]>;
  /** One user's tokens in the workspace, newest first. */
  listForUser(workspaceId: string, userId: string): Promise<ApiToken[]>;
  /** Revokes the user's live tokens in the workspace (sets revokedAt); returns how many. */
  revokeForUser(workspaceId: string, userId: string, at: string): Promise<number>;
  /** Sets revokedAt when not yet set; returns the token as stored afterwards, or null. */
  revoke(id: string, at: string): Promise<ApiToken | null>;
  touch(id: string, at: string): Promise<void>;
}

export interface SignalQuery {
  accountId: string;
  /** Only events with a sequence greater than this. */
  afterSequence?: number;
  types?: readonly string[];
  resourceId?: string;
  limit: number;
}

/** Text of an event made by the caller already (a create's resource is serialized once). */
export interface EventText {
  /** What JSON.stringify makes of the event's `data`. */
  data: string;
}

export interface SignalStore {
  /**
   * Appends an event and returns it with its sequence. Concurrency contract: sequences are
   * strictly increasing in commit order, so a reader paging by `afterSequence` never misses a
   * committed event; a rolled-back append leaves no event.
   */
  append(event: Omit<SignalEvent, 'sequence'>, text?: EventText): Promise<SignalEvent>;
  /** Events of one account in ascending sequence order, at most `limit`. */
  list(query: SignalQuery): Promise<SignalEvent[]>;
  /** How many events match the query's account, types and resourceId, ignoring afterSequence and limit. */
  count(query: Omit<SignalQuery, 'afterSequence' | 'limit'>): Promise<number>;
  /** The event with this id in this account, or null. */
  get(accountId: string, id: string): Promise<SignalEvent | null>;
  /**
   * Where a reader of the account's events that wants only new ones starts: at least the
   * highest sequence of the account's committed events (purged ones included), and below the
   * sequence of any of its events that commits later (0 when there is none). Adapters that
   * serialize every writer may answer with the highest sequence of all accounts. Without an
   * account: the highest sequence of all accounts (a copy of a whole database).
   */
  latestSequence(accountId?: string): Promise<number>;
  /**
   * Stores an event under the sequence it already has (a copy of a whole database into an empty
   * one); later appends take higher sequences. Throws UniqueViolation('signal.sequence') when
   * the sequence is taken.
   */
  restore(event: SignalEvent): Promise<void>;
  /**
   * Makes later appends take sequences above `sequence` (never lowers the next one): a copy keeps
   * the source's latest sequence even when a purge removed the events that reached it, so a
   * reader resuming after that sequence misses nothing appended on the copy.
   */
  continueAfter(sequence: number): Promise<void>;
  /** Deletes events that occurred before `before`; returns how many. */
  purge(before: string): Promise<number>;
}

export interface IdempotencyStore {
  /** The record for (workspace, key), whatever its age: callers judge expiry. */
  get(workspaceId: string, key: string): Promise<IdempotencyRecord | null>;
  /**
   * Stores the record, replacing one for the same (workspace, key) only when that one was
   * created before `replaceIfBefore` (expired). Concurrency contract: of concurrent puts of
   * one live key exactly one succeeds; the others throw UniqueViolation('idempotency.key').
   */
  put(record: IdempotencyRecord, replaceIfBefore: string): Promise<void>;
  /** Deletes records created before `before`; returns how many. */
  purge(before: string): Promise<number>;
}

export interface CounterStore {
  /**
   * Increments the named counter (starting from 0) and returns the new value. Concurrency
   * contract: concurrent transactions get distinct values, and one that rolls back gives its
   * values back, so the values of committed transactions run from 1 without a gap.
   */
  next(name: string): Promise<number>;
  /** Sets the counter (a copy of a whole database): the next `next` returns `value + 1`. */
  set(name: string, value: number): Promise<void>;
}

export interface WebhookStore {
  insert(subscription: WebhookSubscription): Promise<void>;
  /** The subscription with this id in this account, or null. */
  get(accountId: string, id: string): Promise<WebhookSubscription | null>;
  /** The account's subscriptions, newest first, keyset-paged like collections. */
  list(query: {
    accountId: string;
    status?: WebhookSubscription['status'];
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<WebhookSubscription>>;
  /** Compare-and-set on version, as Collection.update. */
  update(subscription: WebhookSubscription, expectedVersion: number): Promise<void>;
  /** Deletes the subscription and its deliveries; returns whether it existed. */
  delete(accountId: string, id: string): Promise<boolean>;
  /** The account's active subscriptions that want this event type (listed, or `*`). */
  activeFor(accountId: string, eventType: string): Promise<WebhookSubscription[]>;
}

/** What a dispatcher asks of `DeliveryStore.claimDue`. */
export interface DeliveryClaim {
  /** Deliveries due at or before this time are claimable. */
  now: string;
  /** A fresh, unique id for this claim: it fences `recordAttempts`. */
  leaseId: string;
  /** The claimed deliveries stay leased to this claim until then. */
  leaseUntil: string;
  /** At most this many deliveries. */
  limit: number;
  /**
   * Fairness budget: a delivery is claimed only while its subscription and its account both have
   * a slot left, counting the deliveries this claim already took. `subscriptionSlots(id)` and
   * `accountSlots(id)` give the slots at the start of the claim (unlimited when absent).
   */
  subscriptionSlots?: (subscriptionId: string) => number;
  accountSlots?: (accountId: string) => number;
  /** Subscriptions and accounts known to have no slot: a query may leave their rows out. */
  fullSubscriptions?: readonly string[];
  fullAccounts?: readonly string[];
  /**
   * False when a thorough claim came back short lately and no delivery was queued since: the
   * claim may then stop after its first page of due rows rather than scan on past the rows of
   * subscriptions and accounts out of slots (behind a large backlog that scan is long). Default
   * true: every claimable delivery within the budget is considered.
   */
  thorough?: boolean;
}

/** The result of one attempt, for `DeliveryStore.recordAttempts`. */
export interface AttemptRecord {
  /** The delivery as it stands after the attempt (its leaseId and leaseExpiresAt cleared). */
  delivery: WebhookDelivery;
  /** The lease under which it was claimed. */
  leaseId: string;
  /** The attempt to append to the delivery's log, or null when nothing was sent. */
  attempt: DeliveryAttempt | null;
}

/** Attempts of one hour: how many delivered (2xx) and how many did not. */
export interface AttemptHour {
  /** The hour's start, e.g. `2026-11-23T17:00:00.000Z`. */
  hour: string;
  succeeded: number;
  failed: number;
}

export interface DeliveryStore {
  insert(delivery: WebhookDelivery): Promise<void>;
  get(accountId: string, id: string): Promise<WebhookDelivery | null>;
  /**
   * Replaces the delivery unconditionally (no fence). Concurrency contract: callers that may
   * race a dispatcher (a retry through the API) read it and decide in the same transaction;
   * transactions are serializable, so a claim cannot slip between the read and the write.
   */
  update(delivery: WebhookDelivery): Promise<void>;
  /** One subscription's deliveries, newest first, keyset-paged. */
  list(query: {
    accountId: string;
    subscriptionId: string;
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<WebhookDelivery>>;
  /**
   * Claims up to `limit` claimable deliveries, oldest due first, within the claim's fairness
   * budget: `pending` ones with nextAttemptAt <= now, and `sending` ones whose lease expired
   * (leaseExpiresAt <= now: their claimant died or stalled). Each is moved to `sending` with
   * leaseId = claim.leaseId and leaseExpiresAt = claim.leaseUntil, and returned as stored.
   * Concurrency contract: concurrent claims (in this process or any other on the same
   * database) never return the same delivery while its lease is live; a claimer that dies
   * leaves its deliveries to be claimed again once the lease passes.
   */
  claimDue(claim: DeliveryClaim): Promise<WebhookDelivery[]>;
  /**
   * Records attempts' results, fenced by lease: a record applies only when the stored delivery
   * is still `sending` under the record's leaseId; it then replaces the delivery and appends
   * the attempt to the log. A stale record (its lease expired and the delivery was claimed
   * again, or re-queued by a retry) changes nothing. Returns, per record, whether it applied.
   * Concurrency contract: of a stale claimant and a new one recording concurrently, only the
   * one holding the current lease applies.
   */
  recordAttempts(records: readonly AttemptRecord[]): Promise<boolean[]>;
  /** Adds an attempt to a delivery's log as it is (for a whole-database copy). */
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** The delivery's attempts, oldest first (at most the last `limit`). */
  attempts(accountId: string, deliveryId: string, limit: number): Promise<DeliveryAttempt[]>;
  /**
   * One subscription's attempts from the hour starting at `since` (an hour's start) on, counted
   * per hour, oldest hour first; hours without attempts are left out. It reads per-hour counts or
   * an index bounded by `since`, never the subscription's whole log, so a day's chart stays cheap
   * however many attempts the subscription has made. Rolled-back attempts are not counted, and
   * deleting the subscription deletes its counts.
   */
  attemptsPerHour(accountId: string, subscriptionId: string, since: string): Promise<AttemptHour[]>;
  /**
   * The earliest time any delivery becomes claimable (a pending one's nextAttemptAt, a sending
   * one's leaseExpiresAt), or null when none will: the dispatcher sleeps until then.
   */
  nextClaimableAt(): Promise<string | null>;
}

export interface SessionStore {
  insert(session: AdminSession): Promise<void>;
  /** The session with this id hash, expired or not: callers judge expiry. */
  get(idHash: string): Promise<AdminSession | null>;
  delete(idHash: string): Promise<boolean>;
  /** Deletes sessions that expired before `before`; returns how many. */
  purge(before: string): Promise<number>;
  /**
   * Leaves one message (opaque text) for the session's next page, replacing any before it;
   * nothing happens when the session does not exist.
   */
  setFlash(idHash: string, flash: string): Promise<void>;
  /**
   * Returns the session's message and clears it. Concurrency contract: of concurrent takes of
   * one message exactly one receives it; the others get null (a reload never shows it twice).
   */
  takeFlash(idHash: string): Promise<string | null>;
}

/**
 * Every table a whole-database copy moves, with the record type of its rows, in the order the
 * copy moves them (referenced rows before the rows that name them).
 */
export interface DumpRows {
  accounts: Account;
  workspaces: Workspace;
  users: User;
  memberships: Membership;
  tokens: ApiToken;
  sessions: AdminSession;
  projects: Project;
  outcomes: Outcome;
  issues: Issue;
  context: ContextItem;
  decisions: Decision;
  timeEntries: TimeEntry;
  comments: Comment;
  issueRelations: IssueRelation;
  counters: { name: string; value: number };
  signals: SignalEvent;
  idempotency: IdempotencyRecord;
  webhooks: WebhookSubscription;
  deliveries: WebhookDelivery;
  deliveryAttempts: DeliveryAttempt;
}
export type DumpTable = keyof DumpRows;

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

/** A label of a workspace and how many of its issues carry it. */
export interface LabelCount {
  name: string;
  /** Issues carrying the label, archived ones included. */
  issueCount: number;
}

/** The labels of a workspace's issues: read from the issues' label index, never written directly. */
export interface LabelStore {
  /**
   * Up to `limit` labels carried by at least one issue of the workspace, in the order of their
   * names' code points (UTF-8 byte order), after the name `after` when given; with `total`, the
   * number of such labels. Concurrency contract: a label count reflects every issue write
   * committed before the transaction's snapshot, and the transaction's own writes.
   */
  list(query: { workspaceId: string; after?: string; limit: number }): Promise<{
    rows: LabelCount[];
    total: number;
  }>;
}

/** Everything a transaction can touch. */
export interface StorageTx {
  tenancy: TenancyStore;
  tokens: TokenStore;
  collections: { [Name in CollectionName]: Collection<Name> };
  labels: LabelStore;
  signals: SignalStore;
  idempotency: IdempotencyStore;
  counters: CounterStore;
  webhooks: WebhookStore;
  deliveries: DeliveryStore;
  sessions: SessionStore;
  dump: DumpStore;
  /**
   * Milliseconds of the storage's time this run of the transaction has taken so far: what its
   * own statements kept the database (and, where it runs in process, the event loop) or its
   * connection busy with, not the time it waited for its turn (a queue, a pool) before them. The
   * pipeline charges it to the request's account (see storage-time.ts), so it must not count
   * another transaction's statements.
   *
   * Concurrency contract: per transaction; it never decreases, and grows with each statement the
   * transaction runs, whatever runs beside it.
   */
  busyMs(): number;
}
